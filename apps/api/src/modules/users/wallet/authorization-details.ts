import { errors, type Configuration } from 'oidc-provider';
import { CREDENTIAL_CONFIGURATIONS, type CredentialConfigurationId } from './credentials';

/**
 * `authorization_details` of type `openid_credential` (OpenID4VCI 1.0 §5.1.1, RFC 9396): the other way a registered
 * wallet may ask for a credential configuration in the authorization code flow. Only wallet clients list the type
 * (clients.ts `authorization_details_types`), so partner sites' requests carrying it are refused by the provider.
 * The access token then carries the details with one `credential_identifiers` entry per configuration (§6.2), and the
 * wallet names that identifier at the credential endpoint.
 */

export const CREDENTIAL_DETAIL_TYPE = 'openid_credential';
const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const KNOWN_MEMBERS = new Set(['type', 'credential_configuration_id', 'locations', 'claims']);

interface CredentialDetail {
  type: string;
  credential_configuration_id?: unknown;
  locations?: unknown;
  [member: string]: unknown;
}

const isConfiguration = (value: unknown): value is CredentialConfigurationId =>
  typeof value === 'string' && (CREDENTIAL_CONFIGURATIONS as readonly string[]).includes(value);

/** The configurations named by `openid_credential` details (already validated), in order, once each. */
export function detailConfigurations(details: unknown): CredentialConfigurationId[] {
  if (!Array.isArray(details)) return [];
  const ids = details
    .filter((detail: CredentialDetail) => detail?.type === CREDENTIAL_DETAIL_TYPE)
    .map((detail: CredentialDetail) => detail.credential_configuration_id)
    .filter(isConfiguration);
  return CREDENTIAL_CONFIGURATIONS.filter((id) => ids.includes(id));
}

/** The `authorization_details` parameter of a request (a JSON string), or [] when absent or not JSON. */
export function parseDetailsParameter(value: unknown): unknown[] {
  if (typeof value !== 'string') return Array.isArray(value) ? value : [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** What a token carries and the token endpoint answers for these configurations (§6.2). */
const tokenDetails = (configurations: CredentialConfigurationId[]) =>
  configurations.map((id) => ({
    type: CREDENTIAL_DETAIL_TYPE,
    credential_configuration_id: id,
    // One credential dataset per configuration: the identifier is the configuration's own id.
    credential_identifiers: [id],
  }));

export function richAuthorizationRequests(
  issuer: string,
  isWalletClient: (client: unknown) => boolean,
): NonNullable<Configuration['features']>['richAuthorizationRequests'] {
  return {
    enabled: true,
    types: {
      [CREDENTIAL_DETAIL_TYPE]: {
        validate(_ctx, detail, client) {
          const entry = detail as CredentialDetail;
          if (!isWalletClient(client))
            throw new errors.InvalidAuthorizationDetails('openid_credential is for registered wallets only');
          if (!isConfiguration(entry.credential_configuration_id))
            throw new errors.InvalidAuthorizationDetails(
              `credential_configuration_id must be one of ${CREDENTIAL_CONFIGURATIONS.join(', ')}`,
            );
          const unknown = Object.keys(entry).filter((member) => !KNOWN_MEMBERS.has(member));
          if (unknown.length)
            throw new errors.InvalidAuthorizationDetails(`unsupported member(s): ${unknown.join(', ')}`);
          if (
            entry.locations !== undefined &&
            (!Array.isArray(entry.locations) || entry.locations.some((location) => location !== issuer))
          )
            throw new errors.InvalidAuthorizationDetails(`locations may name only ${issuer}`);
          // `claims` may narrow what the wallet wants; a credential always carries every age claim (credentials.ts),
          // each selectively disclosable, so it is accepted and does not change the credential.
        },
      },
    },
    // The grant is made for this one request (wallets are asked every time), so it holds what the user agreed to.
    authorizationDetailsForGrantSource: (ctx) => {
      const granted = detailConfigurations(ctx.oidc.grant?.rar);
      return granted.length
        ? granted.map((id) => ({ type: CREDENTIAL_DETAIL_TYPE, credential_configuration_id: id }))
        : undefined;
    },
    authorizationDetailsForAccessToken: (ctx, _token, source, grantType) => {
      // The pre-authorized code flow behaves as before details were supported: the parameter is not read.
      if (grantType === PRE_AUTHORIZED_GRANT) return undefined;
      const granted = detailConfigurations(source?.rar);
      const asked = ctx.oidc.params?.authorization_details;
      if (asked === undefined) return granted.length ? tokenDetails(granted) : undefined;
      // A token request may narrow what was granted, never widen it.
      const requested = parseDetailsParameter(asked);
      const narrowed = detailConfigurations(requested);
      if (narrowed.length !== requested.length || narrowed.some((id) => !granted.includes(id)))
        throw new errors.InvalidAuthorizationDetails('authorization_details were not granted');
      return narrowed.length ? tokenDetails(narrowed) : undefined;
    },
    authorizationDetailsForIntrospection: (_ctx, token) => token.rar,
  } as NonNullable<Configuration['features']>['richAuthorizationRequests'];
}
