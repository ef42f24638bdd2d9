import { Op } from 'sequelize';
import type { OneTimeToken, OneTimeTokenPurpose } from '../../../db/models/index';
import { constantTimeEqual, deriveKey, hmacSha256, randomDigits, randomToken } from '../../../lib/crypto';
import type { Deps } from '../../../core/deps';

/**
 * Single-use secrets sent out of band (reset links, e-mail links, SMS codes). Stored as an HMAC keyed from the
 * master key: even a six-digit code cannot be brute-forced from a stolen database without the key.
 */
export function createOneTimeTokens({ db, config, clock }: Pick<Deps, 'db' | 'config' | 'clock'>) {
  const { OneTimeToken } = db.models;
  const key = deriveKey(config.masterKey, 'one-time-tokens');
  const hash = (purpose: OneTimeTokenPurpose, secret: string) => hmacSha256(key, `${purpose}:${secret}`);

  return {
    /** Issues a new secret, invalidating earlier unused ones of the same purpose for the same subject. */
    async issue(
      purpose: OneTimeTokenPurpose,
      subjectId: string,
      options: { ttlMs: number; target?: string | null; digits?: number; bytes?: number },
    ): Promise<string> {
      const secret = options.digits ? randomDigits(options.digits) : randomToken(options.bytes ?? 32);
      const now = clock.now();
      await db.sequelize.transaction(async (transaction) => {
        await OneTimeToken.destroy({ where: { purpose, subject_id: subjectId, used_at: null }, transaction });
        await OneTimeToken.create(
          {
            purpose,
            subject_id: subjectId,
            token_hash: hash(purpose, secret),
            target: options.target ?? null,
            expires_at: new Date(now.getTime() + options.ttlMs),
            used_at: null,
            created_at: now,
          },
          { transaction },
        );
      });
      return secret;
    },

    /**
     * Consumes a link token: valid only once and only before expiry. The update is conditional on `used_at` still
     * being null, so two concurrent uses cannot both succeed.
     */
    async consume(purpose: OneTimeTokenPurpose, secret: string): Promise<OneTimeToken | null> {
      const row = await OneTimeToken.findOne({ where: { purpose, token_hash: hash(purpose, secret) } });
      const now = clock.now();
      if (!row || row.used_at || row.expires_at <= now) return null;
      const [updated] = await OneTimeToken.update({ used_at: now }, { where: { id: row.id, used_at: null } });
      return updated === 1 ? row : null;
    },

    /**
     * Checks a short code for a known subject (phone codes): counts attempts and gives up after `maxAttempts`, so
     * a six-digit code cannot be guessed online either. Each guess first claims an attempt with a conditional
     * update, so a burst of concurrent guesses cannot all be compared before the counter moves.
     */
    async consumeCode(
      purpose: OneTimeTokenPurpose,
      subjectId: string,
      code: string,
      maxAttempts: number,
    ): Promise<
      { ok: true; row: OneTimeToken } | { ok: false; reason: 'none' | 'expired' | 'too_many' | 'wrong' }
    > {
      const now = clock.now();
      const row = await OneTimeToken.findOne({
        where: { purpose, subject_id: subjectId, used_at: null },
        order: [['created_at', 'DESC']],
      });
      if (!row) return { ok: false, reason: 'none' };
      if (row.expires_at <= now) return { ok: false, reason: 'expired' };
      const [claimed] = await OneTimeToken.update(
        { attempts: db.sequelize.literal('attempts + 1') as unknown as number },
        { where: { id: row.id, used_at: null, attempts: { [Op.lt]: maxAttempts } } },
      );
      if (claimed !== 1) return { ok: false, reason: 'too_many' };
      await row.reload({ attributes: ['attempts'] });
      if (!constantTimeEqual(row.token_hash, hash(purpose, code))) {
        return { ok: false, reason: row.attempts >= maxAttempts ? 'too_many' : 'wrong' };
      }
      const [updated] = await OneTimeToken.update({ used_at: now }, { where: { id: row.id, used_at: null } });
      return updated === 1 ? { ok: true, row } : { ok: false, reason: 'none' };
    },

    async revokeAll(purpose: OneTimeTokenPurpose, subjectId: string): Promise<void> {
      await OneTimeToken.destroy({ where: { purpose, subject_id: subjectId } });
    },
  };
}
export type OneTimeTokens = ReturnType<typeof createOneTimeTokens>;
