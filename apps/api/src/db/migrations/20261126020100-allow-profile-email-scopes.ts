import { QueryTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Name and e-mail left basic_info for their own scopes, `profile` and `email` (issue 15 item 4). Sites that existed
 * before received them through basic_info, so they may now ask for both; users decide on the consent screen.
 */
const ADDED = ['profile', 'email'];

async function rewrite(
  qi: Parameters<Migration>[0]['context'],
  change: (scopes: string[]) => string[],
): Promise<void> {
  const sites = await qi.sequelize.query<{ id: string; allowed_scopes: string }>(
    'SELECT id, allowed_scopes FROM sites',
    { type: QueryTypes.SELECT },
  );
  for (const site of sites) {
    const scopes = JSON.parse(site.allowed_scopes) as string[];
    const next = change(scopes);
    if (next.join(' ') === scopes.join(' ')) continue;
    await qi.sequelize.query('UPDATE sites SET allowed_scopes = :scopes WHERE id = :id', {
      replacements: { id: site.id, scopes: JSON.stringify(next) },
    });
  }
}

export const up: Migration = async ({ context: qi }) => {
  await rewrite(qi, (scopes) => {
    if (!scopes.includes('basic_info')) return scopes;
    const [first, ...rest] = scopes;
    return [first as string, ...ADDED.filter((scope) => !scopes.includes(scope)), ...rest];
  });
};

export const down: Migration = async ({ context: qi }) => {
  await rewrite(qi, (scopes) => scopes.filter((scope) => !ADDED.includes(scope)));
};
