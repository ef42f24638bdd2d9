import type { Middleware } from 'koa';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import type { Deps } from '../core/deps';
import { deriveKey } from '../lib/crypto';
import { createAuditService } from '../modules/shared/audit/service';
import { createGrantService } from '../modules/users/grants/service';
import type { ConsentRow } from './payload-rows';
import { clientSecretMatches } from '../modules/partners/sites/service';
import { createWallet, type Wallet } from '../modules/users/wallet/index';
import { isWalletClient } from '../modules/users/wallet/issuer';
import { createFindAccount, pairwiseSubject } from './account';
import { createAdapterFactory } from './adapter';
import { cacheClientLookups } from './clients';
import { attachProviderEvents } from './events';
import { keepGrantRowForRequest } from './joined-reads';
import { createIssuerAnnouncer } from './issuers';
import { ensureSigningKeys, loadSigningKeys } from './keys';
import { requestConsentKey, takeRequestRow, withRequestRows, type RequestEndpoint } from './request-rows';
import { DEFAULT_TTL, isHttpsPublicUrl, providerConfiguration, type OidcTtl } from './provider';

export const OIDC_MOUNT_PATH = '/oauth2';

/**
 * The provider's own pages (logout confirmation, form_post) may post to partner origins, unlike the SPA; oidc-provider
 * adds the hash of its one inline script to script-src itself.
 */
const OAUTH_CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; form-action *; frame-ancestors 'none'; base-uri 'none'";

export interface OidcOptions {
  /** Shorter lifetimes for tests (e.g. an authorization code that expires in a second). */
  ttl?: Partial<OidcTtl>;
  /** How often a replica checks the database for rotated signing keys; 0 turns the check off. */
  keyCheckIntervalMs?: number;
}

export interface Oidc {
  readonly provider: Provider;
  readonly issuer: string;
  /** Cookie keys derived from the master key; the outer Koa app uses them too (app.keys). */
  readonly cookieKeys: string[];
  /** Koa middleware serving everything under /oauth2. */
  readonly middleware: Middleware;
  readonly mountPath: string;
  /** Wallet credentials: the issuer's keys and policy (modules/users/wallet). */
  readonly wallet: Wallet;
  /** Rebuilds the provider when the signing keys in the database changed (after `rotateSigningKeys`). */
  reloadKeys(): Promise<boolean>;
  /** Announces this replica's issuer in the database; returns other issuers live replicas announced (issuers.ts). */
  announceIssuer(): Promise<string[]>;
  close(): void;
}

/** The provider's paths (relative to the mount) whose lookups read related rows together (request-rows.ts). */
const REQUEST_ROWS_ENDPOINTS: Record<string, RequestEndpoint | undefined> = Object.assign(
  Object.create(null),
  {
    '/userinfo': 'userinfo',
    '/introspect': 'introspection',
    '/token': 'token',
    '/authorize': 'authorization',
  },
);

type Compiled = (ctx: KoaContextWithOIDC, next: () => Promise<unknown>) => Promise<unknown>;

function runAll(middleware: Compiled[], ctx: KoaContextWithOIDC): Promise<unknown> {
  const dispatch = (index: number): Promise<unknown> =>
    index < middleware.length
      ? Promise.resolve((middleware[index] as Compiled)(ctx, () => dispatch(index + 1)))
      : Promise.resolve();
  return dispatch(0);
}

/**
 * Builds the OpenID Connect provider (DESIGN.md §4). Asynchronous because the signing keys come from the database
 * (created on first start). Everything the provider shares between replicas lives in the database, so any number
 * of app instances on one database behave as one provider.
 */
export async function createOidc(deps: Deps, options: OidcOptions = {}): Promise<Oidc> {
  const { config, logger } = deps;
  const issuer = `${config.publicUrl}${OIDC_MOUNT_PATH}`;
  const cookieKeys = [deriveKey(config.masterKey, 'oidc-cookies').toString('base64url')];
  const ttl: OidcTtl = { ...DEFAULT_TTL, ...options.ttl };
  const audit = createAuditService(deps);
  const grants = createGrantService(deps, { audit });
  const wallet = createWallet(deps, { issuer, audit });
  const adapter = createAdapterFactory(deps, {
    onConcurrentReuse: (grantId) => grants.revoke(grantId, 'token_reuse_detected'),
    findOtherClient: wallet.findClient,
  });
  const findAccount = createFindAccount(deps, wallet.presentations.account);

  await ensureSigningKeys(deps);
  const announcer = createIssuerAnnouncer(deps, issuer);
  await announcer.announce();
  const secureCookies = isHttpsPublicUrl(config);
  if (secureCookies && !config.trustProxy) {
    logger.warn(
      { public_url: config.publicUrl },
      'ATTESTLY_PUBLIC_URL is https but ATTESTLY_TRUST_PROXY is off: behind a TLS proxy, client addresses (rate limits, ' +
        'lockout, audit) will be the proxy’s and request URLs will read http. Set ATTESTLY_TRUST_PROXY=true when a ' +
        'trusted proxy sets X-Forwarded-For/-Proto. Cookies are marked Secure either way.',
    );
  }

  // A subject is an HMAC of (partner, user) that never changes; userinfo and every token ask for it again.
  const subjects = new Map<string, string>();
  const subjectFor = (partnerId: string, accountId: string): string => {
    const key = `${partnerId}:${accountId}`;
    let subject = subjects.get(key);
    if (subject === undefined) {
      if (subjects.size >= 10_000) subjects.clear();
      subjects.set(key, (subject = pairwiseSubject(config.masterKey, partnerId, accountId)));
    }
    return subject;
  };

  async function build(): Promise<{ provider: Provider; fingerprint: string }> {
    const { keys, fingerprint } = await loadSigningKeys(deps);
    const provider = new Provider(
      issuer,
      providerConfiguration(config, {
        jwks: { keys },
        cookieKeys,
        adapter,
        findAccount,
        ttl,
        extend: wallet.providerConfiguration,
        async loadExistingGrant(ctx) {
          // A wallet is asked every time: the consent screen applies the issuing policy (modules/users/wallet).
          if (isWalletClient(ctx.oidc.client as never)) {
            const decided = ctx.oidc.result?.consent?.grantId;
            return decided ? ctx.oidc.provider.Grant.find(decided) : undefined;
          }
          const accountId = ctx.oidc.session?.accountId;
          const clientId = ctx.oidc.client?.clientId;
          const { Grant } = ctx.oidc.provider;
          const consented = ctx.oidc.result?.consent?.grantId;
          if (consented) return Grant.find(consented);
          // Consent is remembered per user and site (not per browser session): look the live grant up first. Its
          // Grant payload comes in the same statement and serves the Grant.find that follows (request-rows.ts).
          const kept =
            accountId && clientId
              ? takeRequestRow<ConsentRow[]>(requestConsentKey(accountId, clientId))
              : undefined;
          const live =
            accountId && clientId ? await grants.activeGrant(accountId, clientId, await kept) : null;
          if (live) {
            keepGrantRowForRequest(live.id, live.grant);
            return Grant.find(live.id);
          }
          const fromSession = clientId ? ctx.oidc.session?.grantIdFor(clientId) : undefined;
          return fromSession ? Grant.find(fromSession) : undefined;
        },
        pairwiseIdentifier: (_ctx, accountId, client) =>
          typeof client.partner_id === 'string' ? subjectFor(client.partner_id, accountId) : accountId,
        async introspectionAllowed(ctx, client, token) {
          if (token.clientId === client.clientId) return true;
          // A partner's confidential site may introspect tokens of the partner's other sites, never anyone else's.
          if (client.clientAuthMethod === 'none' || !token.clientId) return false;
          const owner = await ctx.oidc.provider.Client.find(token.clientId);
          const partnerOf = (value: unknown) => (value as { partner_id?: string } | undefined)?.partner_id;
          return !!owner && partnerOf(owner) !== undefined && partnerOf(owner) === partnerOf(client);
        },
      }),
    );
    provider.proxy = config.trustProxy;
    // Stored client secrets are keyed hashes (modules/partners/sites/service.ts): compare the presented secret's hash.
    // This is the extension point panva suggests for hashed secrets (node-oidc-provider#631); provider.ts turns
    // off every feature that would use the secret itself as a key.
    provider.Client.prototype.compareClientSecret = function compareHashedSecret(
      this: { clientSecret?: string },
      actual: string,
    ) {
      return !!this.clientSecret && clientSecretMatches(config.masterKey, actual, this.clientSecret);
    };
    cacheClientLookups(deps.db, provider.Client);
    attachProviderEvents(provider, { deps, audit, grants });
    return { provider, fingerprint };
  }

  let current = await build();

  const middleware: Middleware = async (ctx, next) => {
    if (ctx.path !== OIDC_MOUNT_PATH && !ctx.path.startsWith(`${OIDC_MOUNT_PATH}/`)) return next();
    ctx.set('Content-Security-Policy', OAUTH_CSP);
    const outerUrl = ctx.url;
    const mounted = ctx as unknown as KoaContextWithOIDC & { mountPath?: string };
    // koa-mount semantics: the provider sees paths relative to /oauth2 and builds its URLs with mountPath. The
    // request URL starts with the path checked above, so the prefix is cut from the URL itself (Koa's path setter
    // would parse and re-serialise the URL, twice per request).
    mounted.mountPath = OIDC_MOUNT_PATH;
    if (outerUrl.startsWith(OIDC_MOUNT_PATH)) {
      const inner = outerUrl.slice(OIDC_MOUNT_PATH.length);
      ctx.url = inner.startsWith('/') ? inner : `/${inner}`;
    } else {
      ctx.path = ctx.path.slice(OIDC_MOUNT_PATH.length) || '/'; // an absolute-form request target
    }
    // Secure cookies over a request that reached us as plain HTTP (TLS ended at a proxy we do not trust).
    if (secureCookies) ctx.cookies.secure = true;
    try {
      const run = () => runAll(current.provider.middleware as unknown as Compiled[], mounted);
      // At userinfo, introspection, token and authorization, rows read together with the artefact the request starts
      // from serve the lookups that follow in this request only (request-rows.ts). Other endpoints skip the request
      // scope (each scope costs every promise of the request).
      const endpoint = REQUEST_ROWS_ENDPOINTS[ctx.path];
      // The authorization request's client, so that the session's read takes the user's consent for it too.
      const clientId = endpoint === 'authorization' ? ctx.query.client_id : undefined;
      if (endpoint)
        await withRequestRows(endpoint, run, typeof clientId === 'string' && clientId ? clientId : undefined);
      else await run();
    } finally {
      ctx.url = outerUrl;
      // Audit rows and grant revocations started by provider events (events.ts) are stored before the answer.
      const pending = (ctx.state as { beforeResponse?: Promise<unknown>[] }).beforeResponse;
      if (pending) await Promise.all(pending);
    }
    if (ctx.status === 404 && !ctx.body) {
      ctx.body = { error: 'invalid_request', error_description: 'unrecognized route or unsupported method' };
      ctx.status = 404;
    }
  };

  async function reloadKeys(): Promise<boolean> {
    const { fingerprint } = await loadSigningKeys(deps);
    if (fingerprint === current.fingerprint) return false;
    current = await build();
    logger.info({ kids: fingerprint }, 'OIDC signing keys reloaded');
    return true;
  }

  const interval = options.keyCheckIntervalMs ?? 60_000;
  const timer =
    interval > 0
      ? setInterval(() => {
          reloadKeys().catch((error: unknown) => logger.error({ err: error }, 'OIDC key reload failed'));
          announcer
            .announce()
            .catch((error: unknown) => logger.warn({ err: error }, 'issuer announcement failed'));
        }, interval)
      : null;
  timer?.unref();

  return {
    get provider() {
      return current.provider;
    },
    issuer,
    cookieKeys,
    middleware,
    mountPath: OIDC_MOUNT_PATH,
    wallet,
    reloadKeys,
    announceIssuer: () => announcer.announce(),
    close() {
      if (timer) clearInterval(timer);
    },
  };
}
