import { Op } from 'sequelize';
import { API_KEY_PREFIX, MAX_API_KEYS, type ApiKeyEnvironment, type ApiKeyView } from '@attestly/contracts';
import type { Transaction } from 'sequelize';
import type { Deps } from '../../../core/deps';
import type { ApiKey } from '../../../db/models/index';
import { underPartnerLock } from '../../../db/partner-lock';
import { AppError } from '../../../errors';
import { randomToken, sha256 } from '../../../lib/crypto';
import type { AuditService } from '../../shared/audit/service';
import type { RequestOrigin } from '../../shared/sessions/service';

/** How stale `last_used_at` may get before a call refreshes it: avoids a write on every server-to-server call. */
const TOUCH_INTERVAL_MS = 60_000;
/**
 * A key's use is written to the partner's audit log (`partner.api_key_used`, spec 01 §3) when it is first used
 * after this long unused: one entry per key and hour of use, not one per call.
 */
const USE_AUDIT_INTERVAL_MS = 60 * 60_000;
/** Shown on screens: the environment prefix and the first random characters, enough to tell keys apart. */
const PREFIX_RANDOM_CHARS = 6;

export interface ApiKeyPrincipal {
  partnerId: string;
  keyId: string;
  environment: ApiKeyEnvironment;
}

/** Who asked for a key change: the partner (default) or an administrator (back office, CLI). */
export interface ApiKeyActor {
  origin?: RequestOrigin;
  adminUserId?: string | null;
}

export function presentApiKey(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    environment: key.environment,
    prefix: key.prefix,
    created_at: key.created_at.toISOString(),
    last_used_at: key.last_used_at ? key.last_used_at.toISOString() : null,
  };
}

/** A key just made (created or regenerated): its view plus the key itself, in this answer only. */
export function presentNewApiKey(created: {
  key: ApiKey;
  api_key: string;
}): ApiKeyView & { api_key: string } {
  return { ...presentApiKey(created.key), api_key: created.api_key };
}

export function environmentOfKey(raw: string): ApiKeyEnvironment | null {
  if (raw.startsWith(API_KEY_PREFIX.sandbox)) return 'sandbox';
  if (raw.startsWith(API_KEY_PREFIX.live)) return 'live';
  return null;
}

/**
 * Partner API keys (DESIGN.md §3). A key is `atk_test_` or `atk_live_` and 32 random bytes; only its SHA-256 is
 * stored (a 256-bit random secret needs no slow hash), so a database leak yields no usable key, and looking a key
 * up by its hash avoids comparing against a secret. Keys of suspended partners authenticate nothing.
 */
export function createApiKeyService(
  { db, clock }: Pick<Deps, 'db' | 'clock'>,
  { audit }: { audit: AuditService },
) {
  const { ApiKey, Partner } = db.models;

  function audited(event: string, partnerId: string, key: ApiKey, actor: ApiKeyActor, extra = {}) {
    return audit.recordSafely({
      event,
      severity: event === 'partner.api_key_created' ? 'info' : 'warning',
      partnerId,
      adminUserId: actor.adminUserId ?? null,
      ip: actor.origin?.ip ?? null,
      userAgent: actor.origin?.userAgent ?? null,
      details: { api_key_id: key.id, prefix: key.prefix, environment: key.environment, ...extra },
    });
  }

  async function ownKey(partnerId: string, keyId: string): Promise<ApiKey> {
    const key = await ApiKey.findOne({ where: { id: keyId, partner_id: partnerId, revoked_at: null } });
    if (!key) throw new AppError(404, 'api_keys.not_found', 'API key not found');
    return key;
  }

  async function insert(partnerId: string, environment: ApiKeyEnvironment, transaction?: Transaction) {
    const secret = randomToken(32);
    const raw = API_KEY_PREFIX[environment] + secret;
    const key = await ApiKey.create(
      {
        partner_id: partnerId,
        environment,
        prefix: API_KEY_PREFIX[environment] + secret.slice(0, PREFIX_RANDOM_CHARS),
        key_hash: sha256(raw),
        last_used_at: null,
        revoked_at: null,
        created_at: clock.now(),
      },
      { transaction },
    );
    return { key, api_key: raw };
  }

  return {
    async create(
      { partnerId, environment }: { partnerId: string; environment: ApiKeyEnvironment },
      actor: ApiKeyActor = {},
    ) {
      // Counted and inserted under the partner's lock: racing requests cannot pass the limit together.
      const created = await underPartnerLock(db, partnerId, async (transaction) => {
        const active = await ApiKey.count({
          where: { partner_id: partnerId, revoked_at: null },
          transaction,
        });
        if (active >= MAX_API_KEYS) {
          throw new AppError(
            409,
            'api_keys.limit',
            `You can hold at most ${MAX_API_KEYS} API keys. Delete one you no longer use first.`,
          );
        }
        return insert(partnerId, environment, transaction);
      });
      await audited('partner.api_key_created', partnerId, created.key, actor);
      return created;
    },

    async list(partnerId: string): Promise<ApiKey[]> {
      return ApiKey.findAll({
        where: { partner_id: partnerId, revoked_at: null },
        order: [['created_at', 'DESC']],
      });
    },

    /**
     * Replaces a key by a new one of the same environment; the old key stops working at once. The revocation is a
     * conditional UPDATE, so two racing regenerations of one key yield one new key, the other a 404.
     */
    async regenerate({ partnerId, keyId }: { partnerId: string; keyId: string }, actor: ApiKeyActor = {}) {
      const old = await ownKey(partnerId, keyId);
      // Under the partner's lock too: a create racing between the revocation and the insert would pass the limit.
      const created = await underPartnerLock(db, partnerId, async (transaction) => {
        const [revoked] = await ApiKey.update(
          { revoked_at: clock.now() },
          { where: { id: old.id, revoked_at: null }, transaction },
        );
        if (revoked !== 1) throw new AppError(404, 'api_keys.not_found', 'API key not found');
        return insert(partnerId, old.environment, transaction);
      });
      await audited('partner.api_key_regenerated', partnerId, created.key, actor, {
        replaced_api_key_id: old.id,
        replaced_prefix: old.prefix,
      });
      return created;
    },

    async revoke({ partnerId, keyId }: { partnerId: string; keyId: string }, actor: ApiKeyActor = {}) {
      const key = await ownKey(partnerId, keyId);
      const [revoked] = await ApiKey.update(
        { revoked_at: clock.now() },
        { where: { id: key.id, revoked_at: null } },
      );
      if (revoked !== 1) throw new AppError(404, 'api_keys.not_found', 'API key not found');
      await audited('partner.api_key_revoked', partnerId, key, actor);
    },

    /** The partner and environment behind a raw key, or null for an unknown, revoked or suspended one. */
    async authenticate(
      raw: string,
      origin: Partial<RequestOrigin> & { endpoint?: string } = {},
    ): Promise<ApiKeyPrincipal | null> {
      if (!environmentOfKey(raw) || raw.length > 200) return null;
      const key = await ApiKey.findOne({ where: { key_hash: sha256(raw), revoked_at: null } });
      if (!key) return null;
      const partner = await Partner.findByPk(key.partner_id, { attributes: ['id', 'status'] });
      if (!partner || partner.status === 'suspended') return null;
      const now = clock.now();
      const previousUse = key.last_used_at;
      if (!previousUse || now.getTime() - previousUse.getTime() > TOUCH_INTERVAL_MS) {
        // Conditional on the stale value: of several replicas touching at once, one changes the row.
        const [touched] = await ApiKey.update(
          { last_used_at: now },
          {
            where: {
              id: key.id,
              [Op.or]: [
                { last_used_at: null },
                { last_used_at: { [Op.lt]: new Date(now.getTime() - TOUCH_INTERVAL_MS) } },
              ],
            },
          },
        );
        if (
          touched === 1 &&
          (!previousUse || now.getTime() - previousUse.getTime() > USE_AUDIT_INTERVAL_MS)
        ) {
          await audit.recordSafely({
            event: 'partner.api_key_used',
            partnerId: key.partner_id,
            ip: origin.ip ?? null,
            userAgent: origin.userAgent ?? null,
            details: {
              api_key_id: key.id,
              prefix: key.prefix,
              environment: key.environment,
              endpoint: origin.endpoint ?? null,
              previous_use: previousUse ? previousUse.toISOString() : null,
            },
          });
        }
      }
      return { partnerId: key.partner_id, keyId: key.id, environment: key.environment };
    },
  };
}
export type ApiKeyService = ReturnType<typeof createApiKeyService>;
