import { Text } from 'ink';
import { Command } from 'commander';
import { defineCommand, reports, withContext } from '../../lib/command';
import { EXIT_USER } from '../../lib/errors';

/** `attestly audit verify`: recomputes the audit log's hash chain (modules/shared/audit) and names the first broken link. */
export const auditVerifyCommand = defineCommand(
  'verify',
  (command) =>
    reports(command, 'Walk the audit hash chain and report the first broken link', 'attestly audit verify'),
  async (io) => {
    const result = await withContext(io, async (context) => {
      const { verifyAuditChain } = await import('../../../../apps/api/src/modules/shared/audit/service');
      const total = await context.deps.db.models.AuditLog.count();
      const bar = io.progress('Audit chain', total);
      const verification = await verifyAuditChain(context.deps.db, 1000, (checked) =>
        bar.update(checked),
      ).finally(() => bar.done());
      return { total, ...verification };
    });
    io.result(
      { ok: result.ok, rows: result.total, checked: result.checked, broken_at: result.brokenAt ?? null },
      () =>
        result.ok ? (
          <Text color="green">{`✔ Audit chain intact: ${result.checked} entries verified.`}</Text>
        ) : (
          <Text color="red">{`✘ Audit chain broken at entry ${result.brokenAt?.id} (${result.brokenAt?.reason === 'prev_hash_mismatch' ? 'its link to the previous entry does not match' : 'its content does not match its hash'}); ${result.checked} entries before it are intact.`}</Text>
        ),
    );
    if (!result.ok) process.exitCode = EXIT_USER;
  },
);

export function auditCommand(): Command {
  return new Command('audit').description('The hash-chained audit log').addCommand(auditVerifyCommand);
}
