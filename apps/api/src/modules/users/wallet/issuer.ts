import { decodeProtectedHeader } from 'jose';
import { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { JsonWebKey } from 'node:crypto';
import type { Clock } from '../../../lib/clock';
import {
  AV_DOCTYPE,
  CREDENTIAL_CONFIGURATIONS,
  MDOC_CONFIGURATION,
  SD_JWT_CONFIGURATION,
  ageFacts,
  credentialVct,
  issueCredentialOf,
  type CredentialConfigurationId,
} from './credentials';
import { richAuthorizationRequests } from './authorization-details';
import type { IssuingPolicy } from './issuing-policy';
import { IssuingRefused } from './issuing-policy';
import type { WalletKeyStore } from './key-store';

/**
 * The OpenID4VCI 1.0 issuer (issue 24 item 3) is oidc-provider's own `features.openid4vci` (metadata, the
 * pre-authorized code grant, the nonce endpoint, the credential endpoint with JWT proofs and batches): this file only
 * configures it and formats and signs the credentials it asks for. provider.ts merges the result in.
 */

/** The public client wallets use for the pre-authorized code grant (OID4VCI §6.1: no client authentication). */
export const WALLET_CLIENT_ID = 'attestly-wallet';
export const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
/** EU AV §3.4.1 recommends batches of 30 single-use credentials. */
export const BATCH_SIZE = 30;
export const CREDENTIAL_SCOPE = CREDENTIAL_CONFIGURATIONS.join(' ');

const DAY_MS = 86_400_000;

/** A client that may be issued credentials: the offers' public client, or a wallet client the operator registered. */
export const isWalletClient = (client: { clientId?: string; wallet_client?: unknown } | undefined) =>
  client?.clientId === WALLET_CLIENT_ID || client?.wallet_client === true;
const startOfDay = (time: Date) => new Date(Math.floor(time.getTime() / DAY_MS) * DAY_MS);

/** The audit trail of issuance: counts only, never credential material (research §5.5). */
export interface IssuanceAudit {
  recordSafely(entry: {
    event: string;
    userId?: string | null;
    ip?: string | null;
    userAgent?: string | null;
    details?: Record<string, unknown>;
  }): Promise<unknown>;
}

export interface WalletIssuerOptions {
  issuer: string;
  /** HKDF(master key) so c_nonce values hold on every replica and across restarts. */
  nonceSecret: Buffer;
  credentialDays: number;
  keys: WalletKeyStore;
  policy: IssuingPolicy;
  audit: IssuanceAudit;
  clock: Clock;
  logger: { info(object: object, message: string): void };
}

const proofTypes = (alg: string) => ({ jwt: { proof_signing_alg_values_supported: [alg] } });

export function credentialConfigurations(issuer: string) {
  return {
    [MDOC_CONFIGURATION]: {
      format: 'mso_mdoc',
      doctype: AV_DOCTYPE,
      scope: MDOC_CONFIGURATION,
      cryptographic_binding_methods_supported: ['jwk'] as const,
      credential_signing_alg_values_supported: [-7],
      proof_types_supported: proofTypes('ES256'),
      credential_metadata: {
        display: [{ name: 'Proof of age', locale: 'en' }],
        claims: [{ path: [AV_DOCTYPE, 'age_over_18'], display: [{ name: 'Over 18', locale: 'en' }] }],
      },
    },
    [SD_JWT_CONFIGURATION]: {
      format: 'dc+sd-jwt',
      vct: credentialVct(issuer),
      scope: SD_JWT_CONFIGURATION,
      cryptographic_binding_methods_supported: ['jwk'] as const,
      credential_signing_alg_values_supported: ['ES256'],
      proof_types_supported: proofTypes('ES256'),
      credential_metadata: {
        display: [{ name: 'Age credential', locale: 'en' }],
        claims: [{ path: ['age_equal_or_over', '18'], display: [{ name: 'Over 18', locale: 'en' }] }],
      },
    },
  };
}

/** The configuration provider.ts merges in: the wallet client, openid4vci, and resource indicators for it. */
export function walletProviderConfiguration(options: WalletIssuerOptions): Partial<Configuration> {
  const { issuer } = options;

  async function issueCredential(
    ctx: KoaContextWithOIDC,
    details: {
      credentialConfigurationId: string;
      proofs?: { jwt?: readonly string[] };
      account: { accountId: string };
    },
  ) {
    const configuration = details.credentialConfigurationId as CredentialConfigurationId;
    const jwts = details.proofs?.jwt;
    if (!jwts?.length) throw new errors.InvalidProof('jwt proofs are required');
    // One credential per wallet key: the same key twice would make two credentials linkable by their `cnf`.
    const holderKeys = jwts.map((jwt) => decodeProtectedHeader(jwt).jwk as JsonWebKey | undefined);
    if (holderKeys.some((key) => !key || key.kty !== 'EC' || key.crv !== 'P-256'))
      throw new errors.InvalidProof('each jwt proof must carry its P-256 key in the jwk header');
    const thumbprints = new Set(holderKeys.map((key) => `${key?.x}.${key?.y}`));
    if (thumbprints.size !== holderKeys.length)
      throw new errors.InvalidProof('each jwt proof must use its own key');

    const userId = details.account.accountId;
    const now = options.clock.now();
    let backing;
    try {
      backing = await options.policy.backing(userId, now);
    } catch (error) {
      if (error instanceof IssuingRefused) {
        options.logger.info({ user_id: userId, reason: error.reason }, 'wallet credential refused');
        throw new errors.CredentialRequestDenied(error.detail);
      }
      throw error;
    }
    const issuedDay = startOfDay(now);
    const expiresDay = new Date(
      Math.min(issuedDay.getTime() + options.credentialDays * DAY_MS, startOfDay(backing.until).getTime()),
    );
    if (expiresDay <= issuedDay)
      throw new errors.CredentialRequestDenied('the age verification behind this credential ends today');
    const signer = await options.keys.documentSigner();
    const facts = ageFacts(backing.provenMinAge);
    const credentials = await Promise.all(
      holderKeys.map(async (holderKey) => ({
        credential: await issueCredentialOf(configuration, {
          issuer,
          facts,
          issuedDay,
          expiresDay,
          holderKey: holderKey as JsonWebKey,
          signer,
        }),
      })),
    );
    await options.audit.recordSafely({
      event: 'wallet.credentials_issued',
      userId,
      ip: ctx.ip || null,
      userAgent: ctx.get('User-Agent') || null,
      details: {
        count: credentials.length,
        configuration,
        day: issuedDay.toISOString().slice(0, 10),
        backed_by: backing.method,
      },
    });
    return { credentials };
  }

  return {
    clients: [
      {
        client_id: WALLET_CLIENT_ID,
        client_name: 'Wallet',
        token_endpoint_auth_method: 'none',
        grant_types: [PRE_AUTHORIZED_GRANT],
        response_types: [],
        redirect_uris: [],
      },
    ],
    discovery: { 'pre-authorized_grant_anonymous_access_supported': true },
    features: {
      resourceIndicators: {
        enabled: true,
        // Partner sites never get a resource: their tokens stay as they were (userinfo, no audience).
        defaultResource: async (_ctx, client, oneOf) =>
          oneOf ?? (isWalletClient(client) ? issuer : undefined),
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource, client) => {
          if (resource !== issuer || !isWalletClient(client)) throw new errors.InvalidTarget();
          return {
            scope: CREDENTIAL_SCOPE,
            audience: issuer,
            accessTokenFormat: 'opaque',
            accessTokenTTL: 600,
          };
        },
      },
      richAuthorizationRequests: richAuthorizationRequests(issuer, (client) =>
        isWalletClient(client as Parameters<typeof isWalletClient>[0]),
      ),
      openid4vci: {
        enabled: true,
        ack: 'experimental-01',
        nonceSecret: options.nonceSecret,
        preAuthorizedCodeGrant: true,
        metadata: {
          // This provider is the authorization server for both grants (OID4VCI §12.2.4); its metadata lists them.
          authorization_servers: [issuer],
          batch_credential_issuance: { batch_size: BATCH_SIZE },
          display: [{ name: 'Attestly', locale: 'en' }],
        },
        credentialConfigurationsSupported: credentialConfigurations(issuer),
        credentialEndpointExpectedAudience: () => issuer,
        issueCredential: issueCredential as never,
      },
    } as Configuration['features'],
  };
}
