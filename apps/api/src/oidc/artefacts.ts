import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { AdapterPayload } from 'oidc-provider';
import { deriveKey } from '../lib/crypto';

/**
 * How oidc-provider's artefacts are stored (issue 21 item 2): every bearer artefact — a value that, presented to an
 * endpoint or in a cookie, is the credential itself — is keyed in `oidc_payloads` by a hash of its value, the way
 * Attestly's own sessions and API keys are, and its payload no longer carries the value (`jti`). The adapter hashes
 * what the provider passes on every write and lookup, so a database read or a decrypted backup yields keys that no
 * endpoint accepts: presenting a stored key looks up the hash of the hash.
 *
 * Stored as they are, because their ids are references and not credentials:
 * - Grant: referenced by tokens, sessions and `oauth_authorizations`; presenting a grant id to any endpoint does
 *   nothing, and lists, revocation and webhooks name grants by it.
 * - Interaction: its uid travels in the sign-in URL (`?uid=`) and the partner attribution header by design; what
 *   binds an interaction to a browser is the interaction cookie signed with a key derived from the master key.
 * - ReplayDetection: its id is already a SHA-256 of a used assertion's issuer and jti (oidc-provider).
 * Every other model (AccessToken, RefreshToken, AuthorizationCode, Session — the session cookie's value —,
 * PushedAuthorizationRequest, DeviceCode, BackchannelAuthenticationRequest, ClientCredentials, PreAuthorizedCode,
 * InitialAccessToken, RegistrationAccessToken, and any model a later oidc-provider adds) is hashed.
 *
 * Payloads that refer to another bearer artefact by its value have the reference removed or sealed:
 * - Interaction `session.cookie` (the session cookie's value, never read by the provider): dropped;
 * - Interaction `parJti` and `deviceCode` (the provider finds the pushed request or device code with them when the
 *   interaction ends): sealed with AES-256-GCM under a key derived from the master key;
 * - DeviceCode: `userCode` is hashed into the user_code column and dropped from the payload; the jti is sealed in
 *   the payload, since `findByUserCode` has no other way to give it back.
 * A Session found by its uid (not its cookie) comes back without a jti: oidc-provider 9 only reads such a session
 * (account and grant checks), never saves or destroys it.
 */
const REFERENCE_MODELS: ReadonlySet<string> = new Set(['Grant', 'Interaction', 'ReplayDetection']);

/** True when the model's ids are credentials, stored hashed. */
export const storesHashedIds = (model: string): boolean => !REFERENCE_MODELS.has(model);

/** The stored key of a bearer artefact: SHA-256 of its value, base64url (43 characters). */
export function artefactKey(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** The back office's short fingerprint of a token: the first 12 characters of its stored key (72 bits). */
export const artefactFingerprint = (storedKey: string): string => storedKey.slice(0, 12);

/** Payload property holding a sealed jti (DeviceCode), never seen by the provider. */
const SEALED_JTI = 'sealedJti';

export interface StoredArtefact {
  id: string;
  payload: string;
  userCode: string | null;
}

/**
 * The adapter's side of the stored form: `store` turns what the provider saves into the row's id, payload and user
 * code; `restore` gives the provider back its payload from a row found by the value it presented.
 */
export function createArtefactCodec(masterKey: Buffer) {
  const sealKey = deriveKey(masterKey, 'oidc-artefact-references');

  function seal(value: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
    // The context (model, field, row) as associated data: a sealed value copied onto another row does not open.
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
  }

  function open(sealed: unknown, context: string): string | undefined {
    if (typeof sealed !== 'string') return undefined;
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !tag || !body || iv.length !== 12 || tag.length !== 16) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', sealKey, iv);
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return undefined; // another master key, or tampered: the reference is simply gone
    }
  }

  const sealedField = (id: string, field: string) => `Interaction:${field}:${id}`;

  function store(model: string, id: string, payload: AdapterPayload): StoredArtefact {
    const userCode = typeof payload.userCode === 'string' ? payload.userCode : null;
    if (storesHashedIds(model)) {
      const key = artefactKey(id);
      const { jti: _jti, userCode: _userCode, ...rest } = payload;
      const stored: Record<string, unknown> = rest;
      if (userCode !== null) stored[SEALED_JTI] = seal(id, `${model}:jti:${key}`);
      return { id: key, payload: JSON.stringify(stored), userCode: userCode && artefactKey(userCode) };
    }
    if (model === 'Interaction') {
      const stored: Record<string, unknown> = { ...payload };
      const session = payload.session as Record<string, unknown> | undefined;
      if (session && 'cookie' in session) {
        const { cookie: _cookie, ...kept } = session;
        stored.session = kept;
      }
      for (const field of ['parJti', 'deviceCode'] as const) {
        if (typeof payload[field] === 'string') stored[field] = seal(payload[field], sealedField(id, field));
      }
      return { id, payload: JSON.stringify(stored), userCode: null };
    }
    return { id, payload: JSON.stringify(payload), userCode };
  }

  /**
   * The provider's payload of a row. `presented` is what the provider looked the row up by: the artefact's value
   * (its jti) or, for a device code, the user code.
   */
  function restore(
    model: string,
    storedId: string,
    payload: AdapterPayload,
    presented: { id?: string; userCode?: string },
  ): AdapterPayload {
    if (storesHashedIds(model)) {
      const sealed = payload[SEALED_JTI];
      if (sealed !== undefined) {
        delete payload[SEALED_JTI];
        if (presented.id === undefined) payload.jti = open(sealed, `${model}:jti:${storedId}`);
      }
      if (presented.id !== undefined) payload.jti = presented.id;
      if (presented.userCode !== undefined) payload.userCode = presented.userCode;
      return payload;
    }
    if (model === 'Interaction') {
      for (const field of ['parJti', 'deviceCode'] as const) {
        if (payload[field] !== undefined) payload[field] = open(payload[field], sealedField(storedId, field));
      }
    }
    return payload;
  }

  /** The row key for a value the provider presents. */
  const keyOf = (model: string, id: string): string => (storesHashedIds(model) ? artefactKey(id) : id);

  return { store, restore, keyOf };
}
export type ArtefactCodec = ReturnType<typeof createArtefactCodec>;
