import { credentialVct } from './credentials';

/**
 * The OpenID4VP 1.0 request Attestly's sign-in sends to a wallet (issue 24 item 5): unsigned, by value, with
 * `client_id=redirect_uri:<response_uri>` (the EU AV profile, annex A.5) and a DCQL query whose credential set
 * accepts any one of four credentials that state an age.
 */
export const PID_VCT = 'urn:eudi:pid:1';
export const AV_DOCTYPE = 'eu.europa.ec.av.1';
export const PID_DOCTYPE = 'eu.europa.ec.eudi.pid.1';

export type ResponseMode = 'direct_post' | 'direct_post.jwt';

export interface CredentialQuery {
  id: string;
  format: 'dc+sd-jwt' | 'mso_mdoc';
  vcts?: string[];
  doctype?: string;
}

export function credentialQueries(issuer: string): CredentialQuery[] {
  return [
    { id: 'attestly_age', format: 'dc+sd-jwt', vcts: [credentialVct(issuer)] },
    { id: 'eu_pid_sd_jwt', format: 'dc+sd-jwt', vcts: [PID_VCT] },
    { id: 'eu_av_mdoc', format: 'mso_mdoc', doctype: AV_DOCTYPE },
    { id: 'eu_pid_mdoc', format: 'mso_mdoc', doctype: PID_DOCTYPE },
  ];
}

/** DCQL (OID4VP §6): one of the four, asking only for "at least `threshold`". `values` is a hint; the answer is checked. */
export function dcqlQuery(issuer: string, threshold: number) {
  return {
    credentials: credentialQueries(issuer).map((query) =>
      query.format === 'dc+sd-jwt'
        ? {
            id: query.id,
            format: query.format,
            meta: { vct_values: query.vcts },
            claims: [{ path: ['age_equal_or_over', String(threshold)], values: [true] }],
          }
        : {
            id: query.id,
            format: query.format,
            meta: { doctype_value: query.doctype },
            claims: [{ path: [query.doctype, `age_over_${threshold}`], values: [true] }],
          },
    ),
    credential_sets: [{ options: credentialQueries(issuer).map((query) => [query.id]) }],
  };
}

export function authorizationRequest(options: {
  issuer: string;
  responseUri: string;
  nonce: string;
  state: string;
  threshold: number;
  responseMode: ResponseMode;
  encryptionJwk?: Record<string, unknown>;
}) {
  return {
    client_id: `redirect_uri:${options.responseUri}`,
    response_type: 'vp_token',
    response_mode: options.responseMode,
    response_uri: options.responseUri,
    nonce: options.nonce,
    state: options.state,
    dcql_query: dcqlQuery(options.issuer, options.threshold),
    client_metadata: {
      vp_formats_supported: {
        'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256', 'ES384', 'ES512'], 'kb-jwt_alg_values': ['ES256'] },
        mso_mdoc: {},
      },
      ...(options.encryptionJwk
        ? {
            jwks: { keys: [options.encryptionJwk] },
            encrypted_response_enc_values_supported: ['A128GCM', 'A256GCM'],
          }
        : {}),
    },
  };
}

/** The request by value as an `openid4vp://` link (same device) — also the QR code's content (another device). */
export function walletUrl(request: ReturnType<typeof authorizationRequest>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(request))
    params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  return `openid4vp://?${params.toString()}`;
}
