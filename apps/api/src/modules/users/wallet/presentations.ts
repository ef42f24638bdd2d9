import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import {
  calculateJwkThumbprint,
  compactDecrypt,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
} from 'jose';
import QRCode from 'qrcode';
import type { Logger } from 'pino';
import type { Database } from '../../../db/database';
import { toDate } from '../../../db/rows';
import type { Clock } from '../../../lib/clock';
import { deriveKey, randomToken, sha256 } from '../../../lib/crypto';
import {
  authorizationRequest,
  credentialQueries,
  walletUrl,
  type ResponseMode,
} from './presentation-request';
import {
  assertConsistent,
  PresentationRefused,
  verifyMdocPresentation,
  verifySdJwtPresentation,
  type Binding,
  type DisclosedAges,
} from './presentation-verify';
import type { X509Certificate } from '@peculiar/x509';

/**
 * OpenID4VP transactions of the sign-in's "Use a wallet" (issue 24 item 5). Each lives in the database (any replica
 * takes the wallet's answer), is answered once (a conditional update claims it before anything is checked), and
 * on success yields an ephemeral account: a random subject with only the age claim, no users row.
 */
export const TRANSACTION_TTL_MS = 5 * 60_000;
/** An answered presentation's account lives as long as the tokens issued for it (an access token's hour). */
export const ACCOUNT_TTL_MS = 65 * 60_000;
export const RESPONSE_PATH = '/openid4vp/response';

interface PresentationRow {
  id: string;
  interaction_uid: string;
  nonce: string;
  response_mode: ResponseMode;
  age_threshold: number;
  sealed_key: string | null;
  status: string;
  account_id: string | null;
  claims: string | null;
  response_code_hash: string | null;
  expires_at: unknown;
}

export interface PresentationDeps {
  db: Database;
  clock: Clock;
  logger: Pick<Logger, 'info' | 'warn'>;
  publicUrl: string;
  masterKey: Buffer;
  issuer: string;
  trustAnchors(): Promise<X509Certificate[]>;
}

export function createPresentationService(deps: PresentationDeps) {
  const { db } = deps;
  const sealKey = deriveKey(deps.masterKey, 'wallet-presentation-keys');
  const responseUri = (transaction: string) => `${deps.publicUrl}${RESPONSE_PATH}/${transaction}`;

  function seal(id: string, secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
    cipher.setAAD(Buffer.from(id));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }
  function unseal(id: string, sealed: string): string {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealKey, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(id));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** A new request for the browser's interaction: the wallet link, its QR code, and when it lapses. */
  async function start(interactionUid: string, threshold: number, responseMode: ResponseMode) {
    const now = deps.clock.now();
    await db.write('DELETE FROM wallet_presentations WHERE expires_at < :before', {
      before: new Date(now.getTime() - 86_400_000),
    });
    const transaction = randomToken(24);
    const id = sha256(transaction);
    const nonce = randomToken(32);
    let encryptionJwk: JWK | undefined;
    let sealedKey: string | null = null;
    if (responseMode === 'direct_post.jwt') {
      // HAIP §5: a fresh ECDH-ES P-256 key for each request.
      const pair = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
      const kid = randomToken(8);
      encryptionJwk = { ...(await exportJWK(pair.publicKey)), kid, use: 'enc', alg: 'ECDH-ES' };
      sealedKey = seal(id, JSON.stringify({ ...(await exportJWK(pair.privateKey)), kid }));
    }
    const expiresAt = new Date(now.getTime() + TRANSACTION_TTL_MS);
    await db.write(
      `INSERT INTO wallet_presentations (id, interaction_uid, nonce, response_mode, age_threshold, sealed_key, status,
         created_at, expires_at)
       VALUES (:id, :uid, :nonce, :mode, :threshold, :sealedKey, 'pending', :now, :expiresAt)`,
      { id, uid: interactionUid, nonce, mode: responseMode, threshold, sealedKey, now, expiresAt },
    );
    const request = authorizationRequest({
      issuer: deps.issuer,
      responseUri: responseUri(transaction),
      nonce,
      state: transaction,
      threshold,
      responseMode,
      ...(encryptionJwk ? { encryptionJwk: encryptionJwk as Record<string, unknown> } : {}),
    });
    const url = walletUrl(request);
    return {
      wallet_url: url,
      qr_svg: await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'L', margin: 2 }),
      expires_at: expiresAt.toISOString(),
    };
  }

  async function load(id: string): Promise<PresentationRow | undefined> {
    const [row] = await db.read<PresentationRow>('SELECT * FROM wallet_presentations WHERE id = :id', { id });
    return row;
  }

  /** Checks the answer; throws PresentationRefused (reason for the log) unless it proves the asked age. */
  async function check(row: PresentationRow, transaction: string, body: Record<string, string | undefined>) {
    let fields = body;
    let jwkThumbprint: Uint8Array | undefined;
    if (row.response_mode === 'direct_post.jwt') {
      if (!body.response || !row.sealed_key) throw new PresentationRefused('no encrypted response');
      const privateJwk = JSON.parse(unseal(row.id, row.sealed_key)) as JWK;
      try {
        const { plaintext } = await compactDecrypt(body.response, await importJWK(privateJwk, 'ECDH-ES'), {
          keyManagementAlgorithms: ['ECDH-ES'],
          contentEncryptionAlgorithms: ['A128GCM', 'A256GCM'],
        });
        const decrypted = JSON.parse(Buffer.from(plaintext).toString('utf8')) as Record<string, unknown>;
        fields = Object.fromEntries(
          Object.entries(decrypted).map(([key, value]) => [
            key,
            typeof value === 'string' ? value : JSON.stringify(value),
          ]),
        );
      } catch {
        throw new PresentationRefused('response does not decrypt');
      }
      const { d: _d, ...publicJwk } = privateJwk;
      jwkThumbprint = new Uint8Array(Buffer.from(await calculateJwkThumbprint(publicJwk), 'base64url'));
    }
    if (fields.state !== transaction) throw new PresentationRefused('state');
    let token: Record<string, unknown>;
    try {
      token = JSON.parse(fields.vp_token ?? '') as Record<string, unknown>;
    } catch {
      throw new PresentationRefused('vp_token is not JSON');
    }
    const queries = credentialQueries(deps.issuer);
    const answered = Object.keys(token);
    if (answered.length !== 1) throw new PresentationRefused('expected one credential');
    const query = queries.find((candidate) => candidate.id === answered[0]);
    const values = token[answered[0] as string];
    if (!query || !Array.isArray(values) || values.length !== 1 || typeof values[0] !== 'string')
      throw new PresentationRefused('vp_token does not answer the query');
    const binding: Binding = {
      clientId: `redirect_uri:${responseUri(transaction)}`,
      nonce: row.nonce,
      responseUri: responseUri(transaction),
      ...(jwkThumbprint ? { jwkThumbprint } : {}),
      now: deps.clock.now(),
    };
    const anchors = await deps.trustAnchors();
    const ages: DisclosedAges = {};
    if (query.format === 'dc+sd-jwt') {
      const claims = await verifySdJwtPresentation(values[0], { anchors, vcts: query.vcts ?? [], binding });
      const stated = (claims.age_equal_or_over ?? {}) as Record<string, unknown>;
      for (const [age, value] of Object.entries(stated))
        if (/^\d{1,3}$/.test(age)) ages[Number(age)] = value === true;
    } else {
      const { elements } = await verifyMdocPresentation(values[0], {
        anchors,
        doctypes: [query.doctype as string],
        binding,
      });
      for (const [name, value] of Object.entries(elements[query.doctype as string] ?? {})) {
        const match = /^age_over_(\d{1,3})$/.exec(name);
        if (match) ages[Number(match[1])] = value === true;
      }
    }
    assertConsistent(ages);
    if (ages[row.age_threshold] !== true)
      throw new PresentationRefused(`not shown to be over ${row.age_threshold}`);
    return query.id;
  }

  /**
   * The wallet's POST to the response URI. Claimed before checking, so a replayed or concurrent answer finds it
   * taken; every refusal looks the same to the caller.
   */
  async function answer(transaction: string, body: Record<string, string | undefined>) {
    const id = sha256(transaction);
    const now = deps.clock.now();
    const claimed = await db.write(
      "UPDATE wallet_presentations SET status = 'checking' WHERE id = :id AND status = 'pending' AND expires_at > :now",
      { id, now },
    );
    const row = claimed === 1 ? await load(id) : undefined;
    if (!row) {
      deps.logger.info(
        { presentation: id.slice(0, 12), reason: 'unknown, expired or already answered' },
        'wallet presentation refused',
      );
      return { ok: false as const };
    }
    try {
      const credential = await check(row, transaction, body);
      const accountId = randomUUID();
      const responseCode = randomToken(24);
      const claims = {
        age_verified: true,
        age_threshold: row.age_threshold,
        [`age_over_${row.age_threshold}`]: true,
      };
      await db.write(
        `UPDATE wallet_presentations SET status = 'answered', account_id = :accountId, claims = :claims,
           response_code_hash = :codeHash, answered_at = :now, sealed_key = NULL WHERE id = :id AND status = 'checking'`,
        { id, accountId, claims: JSON.stringify(claims), codeHash: sha256(responseCode), now },
      );
      deps.logger.info({ presentation: id.slice(0, 12), credential }, 'wallet presentation accepted');
      return {
        ok: true as const,
        redirectUri: `${deps.publicUrl}/oauth/login?uid=${encodeURIComponent(row.interaction_uid)}&response_code=${responseCode}`,
      };
    } catch (error) {
      if (!(error instanceof PresentationRefused)) throw error;
      await db.write("UPDATE wallet_presentations SET status = 'refused', sealed_key = NULL WHERE id = :id", {
        id,
      });
      deps.logger.info(
        { presentation: id.slice(0, 12), reason: error.message },
        'wallet presentation refused',
      );
      return { ok: false as const };
    }
  }

  /** The newest transaction of an interaction, as the polling browser sees it. */
  async function status(interactionUid: string) {
    const [row] = await db.read<PresentationRow>(
      'SELECT * FROM wallet_presentations WHERE interaction_uid = :uid ORDER BY created_at DESC LIMIT 1',
      { uid: interactionUid },
    );
    if (!row) return 'expired';
    if (row.status === 'pending' || row.status === 'checking')
      return (toDate(row.expires_at) as Date) > deps.clock.now() ? 'pending' : 'expired';
    return row.status === 'used' ? 'expired' : (row.status as 'answered' | 'refused');
  }

  /**
   * Takes the interaction's answered presentation, once: with the response code when the wallet sent the browser
   * back (same device), or from the browser that started it (cross device, the interaction cookie binds it).
   */
  async function finish(interactionUid: string, responseCode: string | null) {
    const now = deps.clock.now();
    const [row] = await db.read<PresentationRow>(
      `SELECT * FROM wallet_presentations WHERE interaction_uid = :uid AND status = 'answered'
        ORDER BY created_at DESC LIMIT 1`,
      { uid: interactionUid },
    );
    if (!row || (responseCode !== null && sha256(responseCode) !== row.response_code_hash)) return null;
    const taken = await db.write(
      `UPDATE wallet_presentations SET status = 'used', used_at = :now, expires_at = :until
        WHERE id = :id AND status = 'answered'`,
      { id: row.id, now, until: new Date(now.getTime() + ACCOUNT_TTL_MS) },
    );
    if (taken !== 1) return null;
    return { accountId: row.account_id as string, threshold: row.age_threshold };
  }

  /** The ephemeral account behind a token (findAccount): its age claim only, while its tokens may live. */
  async function account(accountId: string): Promise<Record<string, unknown> | null> {
    const [row] = await db.read<{ claims: string; expires_at: unknown }>(
      "SELECT claims, expires_at FROM wallet_presentations WHERE account_id = :accountId AND status = 'used'",
      { accountId },
    );
    if (!row || (toDate(row.expires_at) as Date) <= deps.clock.now()) return null;
    return JSON.parse(row.claims) as Record<string, unknown>;
  }

  return { start, answer, status, finish, account };
}
export type PresentationService = ReturnType<typeof createPresentationService>;
