import { Command } from 'commander';
import { Text } from 'ink';
import { Table } from '../../components/table';
import { defineCommand, examples, reports, withContext } from '../../lib/command';

interface KeyRow {
  kid: string;
  alg: string;
  state: 'current' | 'retired';
  created_at: string;
  unpublish_after: string | null;
}

const list = defineCommand(
  'list',
  (command) =>
    reports(
      command,
      'List the OIDC signing keys (current and still-published retired ones)',
      'attestly keys list',
    ),
  async (io) => {
    const keys = await withContext(io, async (context) => {
      const rows = await context.deps.db.models.OidcSigningKey.findAll({ order: [['created_at', 'DESC']] });
      return rows.map((row): KeyRow => ({
        kid: row.kid,
        alg: row.alg,
        state: row.retired_at ? 'retired' : 'current',
        created_at: new Date(row.created_at).toISOString(),
        unpublish_after: row.unpublish_after ? new Date(row.unpublish_after).toISOString() : null,
      }));
    });
    io.result({ keys }, () => (
      <Table
        columns={['KID', 'ALG', 'STATE', 'CREATED', 'UNPUBLISHED AFTER']}
        rows={keys.map((key) => [
          key.kid,
          key.alg,
          key.state,
          key.created_at.slice(0, 19),
          key.unpublish_after?.slice(0, 19) ?? '',
        ])}
        empty="No signing keys yet: they are created on the first `attestly serve`."
      />
    ));
  },
);

const rotate = defineCommand(
  'rotate',
  (command) =>
    examples(
      command.description(
        'Rotate the OIDC signing keys: new keys sign at once; old ones stay published until their tokens expire. Running servers pick the new keys up at their next key check (within a minute), without a restart.',
      ),
      ['attestly keys rotate', 'attestly keys rotate --json'],
    ),
  async (io) => {
    const result = await withContext(io, async (context) => {
      const { rotateSigningKeys } = await import('../../../../apps/api/src/oidc/keys');
      const rotated = await rotateSigningKeys(context.deps);
      await context.services.audit.record({
        event: 'signing_keys_rotated',
        severity: 'warning',
        userAgent: 'attestly-cli',
        details: { added: rotated.added, retired: rotated.retired, removed: rotated.removed },
      });
      return rotated;
    });
    io.result(
      { ok: true, ...result },
      <Text color="green">{`✔ New signing keys ${result.added.join(', ')}; retired ${result.retired.length}, removed ${result.removed} expired.`}</Text>,
    );
  },
);

export function keysCommand(): Command {
  return new Command('keys')
    .description('OIDC token signing keys: list, rotate')
    .addCommand(list)
    .addCommand(rotate);
}
