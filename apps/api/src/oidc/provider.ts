import type { AdapterFactory, Configuration, FindAccount, Grant, KoaContextWithOIDC } from 'oidc-provider';
import { SCOPES } from '@attestly/contracts';
import type { Config } from '../config';
import { SCOPE_CLAIMS } from './account';
import { ID_TOKEN_TTL_SECONDS, type SigningJwk } from './keys';

/** Lifetimes in seconds. The access token's 3600 is the spec's sample `expires_in` (spec 01 §3). */
export interface OidcTtl {
  AccessToken: number;
  AuthorizationCode: number;
  IdToken: number;
  RefreshToken: number;
  Grant: number;
  Interaction: number;
  Session: number;
}

export const DEFAULT_TTL: OidcTtl = {
  AccessToken: 3600,
  // RFC 6749 §4.1.2 recommends at most 10 minutes; a minute is plenty for a back-channel exchange.
  AuthorizationCode: 60,
  IdToken: ID_TOKEN_TTL_SECONDS,
  RefreshToken: 30 * 24 * 3600,
  // How long consent is remembered (and the user's "token" lives) without being used again.
  Grant: 365 * 24 * 3600,
  Interaction: 30 * 60,
  Session: 14 * 24 * 3600,
};

export interface ProviderHooks {
  jwks: { keys: SigningJwk[] };
  cookieKeys: string[];
  adapter: AdapterFactory;
  findAccount: FindAccount;
  loadExistingGrant: (ctx: KoaContextWithOIDC) => Promise<Grant | undefined>;
  pairwiseIdentifier: (
    ctx: KoaContextWithOIDC,
    accountId: string,
    client: { partner_id?: unknown },
  ) => string;
  introspectionAllowed: NonNullable<NonNullable<Configuration['features']>['introspection']>['allowedPolicy'];
  ttl: OidcTtl;
  /** More configuration merged in (features merged one by one): wallet credentials (modules/users/wallet/issuer.ts). */
  extend?: Partial<Configuration>;
}

export const isHttpsPublicUrl = (config: Pick<Config, 'publicUrl'>) => config.publicUrl.startsWith('https:');

const originsByClient = new WeakMap<object, Set<string>>();
/** The origins of a client's redirect URIs (computed once per Client instance, which the adapter caches). */
function redirectOrigins(client: object): Set<string> {
  let origins = originsByClient.get(client);
  if (!origins) {
    origins = new Set();
    for (const uri of (client as { redirectUris?: string[] }).redirectUris ?? []) {
      try {
        origins.add(new URL(uri).origin);
      } catch {
        // Not a URL: no origin to allow.
      }
    }
    originsByClient.set(client, origins);
  }
  return origins;
}

/**
 * oidc-provider configuration (DESIGN.md §4). Configuration only: the functions it needs are built in account.ts,
 * adapter.ts, keys.ts and index.ts. Routes follow the spec's paths under /oauth2 (spec 01 §7 "OAuth2").
 */
export function providerConfiguration(config: Config, hooks: ProviderHooks): Configuration {
  const base = baseConfiguration(config, hooks);
  const { features, ...rest } = hooks.extend ?? {};
  return { ...base, ...rest, features: { ...base.features, ...features } as Configuration['features'] };
}

function baseConfiguration(config: Config, hooks: ProviderHooks): Configuration {
  // Behind a TLS proxy the request itself may look like plain HTTP (without ATTESTLY_TRUST_PROXY): the public URL,
  // not the request's scheme, decides (issue 15 item 5). index.ts lets Koa send them over such a request.
  const secure = isHttpsPublicUrl(config);
  return {
    adapter: hooks.adapter,
    findAccount: hooks.findAccount,
    loadExistingGrant: hooks.loadExistingGrant,
    jwks: hooks.jwks,
    routes: {
      authorization: '/authorize',
      token: '/token',
      userinfo: '/userinfo',
      revocation: '/revoke',
      introspection: '/introspect',
      jwks: '/jwks',
      end_session: '/end_session',
      pushed_authorization_request: '/par',
    },
    scopes: ['openid', 'offline_access', ...SCOPES],
    claims: { acr: null, sid: null, auth_time: null, iss: null, ...SCOPE_CLAIMS },
    subjectTypes: ['public', 'pairwise'],
    pairwiseIdentifier: (ctx, accountId, client) =>
      hooks.pairwiseIdentifier(ctx, accountId, client as { partner_id?: unknown }),
    // wallet_client marks a wallet the operator registered (modules/users/wallet/clients.ts).
    extraClientMetadata: { properties: ['partner_id', 'site_id', 'wallet_client'] },
    // Sector identifiers are derived from a site's declared domain (adapter.ts) and pairwise subjects are computed per
    // partner, so there is no sector document to fetch.
    sectorIdentifierUriValidate: () => false,
    responseTypes: ['code'],
    // RFC 9700 §2.1.1: PKCE for every client, confidential ones included; oidc-provider 9 accepts only S256.
    pkce: { required: () => true },
    // CORS on the token, userinfo, introspection and revocation endpoints only for the origins of the client's
    // registered redirect URIs (the provider's default reflects any Origin).
    clientBasedCORS: (_ctx, origin, client) => redirectOrigins(client).has(origin),
    // Tokens follow their grant, not the browser session that started them (DESIGN.md §4: a user's "tokens" are
    // the grants on /tokens). A token lives until it expires (an hour for access tokens) or its grant is revoked —
    // by the user on /tokens, by the partner, or on reuse detection. Signing out at /oauth2/end_session ends the
    // browser session at Attestly but does not silently kill partner tokens that /tokens still lists as active
    // (partners revoke their own tokens at /oauth2/revoke). It also spares every token, userinfo and
    // introspection request a session lookup.
    expiresWithSession: async () => false,
    // Every refresh rotates; presenting a rotated (consumed) refresh token revokes the whole grant (RFC 9700 §4.14.2).
    rotateRefreshToken: () => true,
    // Client secrets are stored as keyed hashes, so nothing may use them as HMAC keys: secret-based JWT client
    // authentication, HS* signatures and symmetric encryption stay off.
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256', 'ES256'],
      requestObjectSigningAlgValues: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      userinfoSigningAlgValues: ['RS256', 'ES256'],
      introspectionSigningAlgValues: ['RS256', 'ES256'],
      authorizationSigningAlgValues: ['RS256', 'ES256'],
    },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      id_token_signed_response_alg: 'RS256',
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    features: {
      devInteractions: { enabled: false },
      introspection: { enabled: true, allowedPolicy: hooks.introspectionAllowed },
      revocation: {
        enabled: true,
        // RFC 7009 §2.1: a client may revoke only its own tokens.
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      pushedAuthorizationRequests: { enabled: true },
      resourceIndicators: { enabled: false },
    },
    ttl: {
      AccessToken: hooks.ttl.AccessToken,
      AuthorizationCode: hooks.ttl.AuthorizationCode,
      IdToken: hooks.ttl.IdToken,
      RefreshToken: hooks.ttl.RefreshToken,
      Grant: hooks.ttl.Grant,
      Interaction: hooks.ttl.Interaction,
      Session: hooks.ttl.Session,
    },
    cookies: {
      keys: hooks.cookieKeys,
      long: { signed: true, httpOnly: true, sameSite: 'lax', secure },
      // Path '/' so the interaction cookie also reaches the JSON interaction API under /api/v1/oauth/interactions:
      // that API checks the cookie to bind each sign-in/consent step to the browser that started the request.
      short: { signed: true, httpOnly: true, sameSite: 'lax', path: '/', secure },
    },
    interactions: {
      url: (_ctx, interaction) =>
        `${config.publicUrl}/oauth/${interaction.prompt.name === 'login' ? 'login' : 'consent'}?uid=${encodeURIComponent(interaction.uid)}`,
    },
    // RFC 6749 §4.1.2.1: errors that cannot go back to the client (unknown or inactive client, bad redirect URI)
    // are never sent to it. A person's browser gets the styled error screen of the SPA; other callers get JSON.
    renderError: async (ctx, out) => {
      if (ctx.method === 'GET' && ctx.get('Accept').includes('text/html')) {
        const query = new URLSearchParams({
          error: String(out.error ?? 'server_error'),
          error_description: String(out.error_description ?? ''),
        });
        ctx.status = 303;
        ctx.redirect(`${config.publicUrl}/oauth/error?${query.toString()}`);
        return;
      }
      ctx.type = 'application/json';
      ctx.body = {
        error: out.error,
        error_description: out.error_description,
        ...(out.state ? { state: out.state } : {}),
      };
    },
  };
}
