import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Bearer artefacts stored like passwords (issue 21 item 2): `oidc_payloads` rows of tokens, codes, provider
 * sessions (the session cookie's value) and pushed requests were keyed by the very value a client presents, and
 * their payloads repeated it as `jti`, so a database read or a backup handed out working tokens. From now on the
 * adapter (oidc/artefacts.ts) keys them by SHA-256 of the value (base64url) and stores no value; this migration
 * converts the rows already there, in place, so that every token, code and sign-in session stays valid across the
 * upgrade:
 * - every model except Grant, Interaction and ReplayDetection (references, not credentials): id → SHA-256(id),
 *   `jti` dropped from the payload; a device code's user code is hashed too and dropped from its payload;
 * - Interaction payloads lose the references to other artefacts' values they carried (`session.cookie`, `parJti`,
 *   `deviceCode`): the new code seals `parJti` and `deviceCode` with a key derived from the master key, which a
 *   migration does not have. Without them an interaction still ends normally; the pushed request it came from,
 *   which expires 60 seconds after it was pushed, is then not marked used (nobody can load an expired one).
 *
 * A row is converted when its payload still carries `jti` (the provider always wrote it), which makes the
 * migration safe to run again after an interruption: converted rows are skipped. Hand-written in JavaScript so the
 * hash is the same on SQLite and PostgreSQL. The migration is self-contained: it must keep producing these exact
 * keys whatever the adapter does later.
 */
const REFERENCE_MODELS = ['Grant', 'Interaction', 'ReplayDetection'];
const BATCH = 500;

const keyOf = (value: string) => createHash('sha256').update(value).digest('base64url');

interface Row {
  model: string;
  id: string;
  payload: string;
  user_code: string | null;
}

function parse(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export const up: Migration = async ({ context: qi }) => {
  const sequelize = qi.sequelize;

  // Keyset walk over (model, id): rows converted in this run get new ids and may come round again; having no jti
  // any more, they are skipped.
  let after: { model: string; id: string } = { model: '', id: '' };
  for (;;) {
    const rows = await sequelize.query<Row & Record<string, unknown>>(
      `SELECT * FROM oidc_payloads
        WHERE (model, id) > (:model, :id) AND model NOT IN (:references)
        ORDER BY model, id LIMIT ${BATCH}`,
      { type: QueryTypes.SELECT, replacements: { references: REFERENCE_MODELS, ...after } },
    );
    if (rows.length === 0) break;
    const last = rows[rows.length - 1] as Row;
    after = { model: last.model, id: last.id };
    const converted: Array<{ from: Row; to: Record<string, unknown> }> = [];
    for (const row of rows) {
      const payload = parse(row.payload);
      if (!payload || !('jti' in payload)) continue;
      delete payload.jti;
      delete payload.userCode;
      converted.push({
        from: row,
        to: {
          ...row,
          id: keyOf(row.id),
          payload: JSON.stringify(payload),
          user_code: row.user_code === null ? null : keyOf(row.user_code),
        },
      });
    }
    if (converted.length === 0) continue;
    // Set-based, one transaction per batch: the batch's rows are deleted and inserted again under their new keys
    // (every column copied as read), two statements and one commit per 500 rows instead of one per row.
    const columns = Object.keys((converted[0] as { to: Record<string, unknown> }).to);
    // Values escaped here rather than as named replacements: Sequelize's replacement pass over a 5,000-value
    // statement cost more than the statement itself.
    const tuples = converted.map(
      ({ to }) => `(${columns.map((column) => sequelize.escape(to[column] as string)).join(', ')})`,
    );
    const byModel = new Map<string, string[]>();
    for (const { from } of converted) byModel.set(from.model, [...(byModel.get(from.model) ?? []), from.id]);
    await sequelize.transaction(async (transaction) => {
      for (const [model, ids] of byModel) {
        await sequelize.query('DELETE FROM oidc_payloads WHERE model = :model AND id IN (:ids)', {
          transaction,
          replacements: { model, ids },
        });
      }
      await sequelize.query(`INSERT INTO oidc_payloads (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, {
        transaction,
      });
    });
  }

  const interactions = await sequelize.query<Row>(
    `SELECT model, id, payload, user_code FROM oidc_payloads
      WHERE model = 'Interaction' AND (payload LIKE '%"cookie"%' OR payload LIKE '%"parJti"%' OR payload LIKE '%"deviceCode"%')`,
    { type: QueryTypes.SELECT },
  );
  for (const row of interactions) {
    const payload = parse(row.payload);
    if (!payload) continue;
    const session = payload.session as Record<string, unknown> | undefined;
    if (session && typeof session === 'object') delete session.cookie;
    delete payload.parJti;
    delete payload.deviceCode;
    await sequelize.query(
      `UPDATE oidc_payloads SET payload = :payload WHERE model = 'Interaction' AND id = :id`,
      {
        replacements: { payload: JSON.stringify(payload), id: row.id },
      },
    );
  }
};

/**
 * A hash cannot be turned back into its token: the earlier code would find none of the converted rows. They are
 * deleted, so that it starts clean — partners' tokens and codes end (their grants stay, so a refresh fails and the
 * partner signs the user in again without a new consent), and users sign in to the provider again.
 */
export const down: Migration = async ({ context: qi }) => {
  await qi.sequelize.query(`DELETE FROM oidc_payloads WHERE model NOT IN (:references)`, {
    replacements: { references: REFERENCE_MODELS },
  });
};
