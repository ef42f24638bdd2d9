import type { AdapterPayload } from 'oidc-provider';
import type { Deps } from '../core/deps';
import { toDate } from '../db/rows';
import type { ArtefactCodec } from './artefacts';

/** A user's consent to a client with its Grant payload, as one joined row (grants/service.ts picks the live one). */
export interface ConsentRow {
  id: string;
  expires_at: unknown;
  updated_at: unknown;
  g_payload: string | null;
  g_expires_at: unknown;
  g_consumed_at: unknown;
}

/** Models whose rows belong to a grant and go when it is revoked (oidc-provider's memory adapter keeps the same set). */
export const GRANTABLE_MODELS = [
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
] as const;

export interface PayloadRow {
  payload: string;
  expires_at: unknown;
  consumed_at: unknown;
}

/**
 * The provider's time base: oidc-provider stamps `iat`/`exp` with the real clock (not the injected one), so the
 * adapter must judge expiry on the same clock or the two would disagree in tests that move the app's clock.
 */
export const providerNow = () => Date.now();

/** A stored payload as the provider takes it: undefined once expired, `consumed` from the row's consumption time. */
export function payloadOf(row: PayloadRow | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  const expiresAt = toDate(row.expires_at);
  if (expiresAt && expiresAt.getTime() <= providerNow()) return undefined;
  const payload = JSON.parse(row.payload) as AdapterPayload;
  const consumedAt = toDate(row.consumed_at);
  if (consumedAt) payload.consumed = Math.floor(consumedAt.getTime() / 1000);
  return payload;
}

/** A token row read by the value `id`: its payload with the value given back as its jti. */
export function tokenPayloadOf(row: PayloadRow | undefined, id: string): AdapterPayload | undefined {
  const payload = payloadOf(row);
  if (payload) payload.jti = id;
  return payload;
}

export type FindPayload = (
  column: 'id' | 'uid' | 'user_code',
  model: string,
  value: string,
) => Promise<AdapterPayload | undefined>;

/**
 * One payload by its id (the value the provider presents: hashed for bearer artefacts), its session uid, or its
 * device user code (hashed like an id).
 *
 * Reads go through `db.read` (plain prepared SELECTs run at once on SQLite, the pool on PostgreSQL) rather than
 * Sequelize models: every token, userinfo and introspection request makes several of them, and Sequelize's query
 * building and instance hydration were most of their CPU time. Expiry is judged in JavaScript, so no date literal
 * has to match the way each dialect stores timestamps.
 */
export function createPayloadReader(deps: Pick<Deps, 'db'>, artefacts: ArtefactCodec): FindPayload {
  return async function findPayload(column, model, value) {
    const key = column === 'uid' ? value : artefacts.keyOf(model, value);
    const [row] = await deps.db.read<PayloadRow & { id: string }>(
      `SELECT id, payload, expires_at, consumed_at FROM oidc_payloads WHERE model = :model AND ${column} = :value`,
      { model, value: key },
    );
    const payload = payloadOf(row);
    if (!payload || !row) return undefined;
    const presented = column === 'id' ? { id: value } : column === 'user_code' ? { userCode: value } : {};
    return artefacts.restore(model, row.id, payload, presented);
  };
}
