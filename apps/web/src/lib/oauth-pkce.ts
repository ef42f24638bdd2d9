/**
 * PKCE and the first-party OAuth flow's browser state (spec 01 §7 "OAuth2", §9): 32 random bytes, SHA-256, S256,
 * base64url. State, verifier, redirect URI and client id live in session storage during the flow and are cleared
 * on success.
 */
export const OAUTH_STORAGE_KEYS = {
  state: 'oauth_state',
  verifier: 'oauth_code_verifier',
  redirectUri: 'oauth_redirect_uri',
  clientId: 'oauth_client_id',
} as const;

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A random string of `bytes` random bytes, base64url (used for the verifier and the state). */
export function randomString(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export const generateCodeVerifier = () => randomString(32);

export async function codeChallengeS256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** Builds the /oauth2/authorize URL and remembers what /callback needs to finish the flow. */
export async function startAuthorization(options: {
  clientId: string;
  redirectUri: string;
  scope: string;
}): Promise<string> {
  const verifier = generateCodeVerifier();
  const state = randomString(32);
  sessionStorage.setItem(OAUTH_STORAGE_KEYS.state, state);
  sessionStorage.setItem(OAUTH_STORAGE_KEYS.verifier, verifier);
  sessionStorage.setItem(OAUTH_STORAGE_KEYS.redirectUri, options.redirectUri);
  sessionStorage.setItem(OAUTH_STORAGE_KEYS.clientId, options.clientId);
  const url = new URL('/oauth2/authorize', window.location.origin);
  url.search = new URLSearchParams({
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: options.scope,
    state,
    code_challenge: await codeChallengeS256(verifier),
    code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

export function clearAuthorizationState(): void {
  for (const key of Object.values(OAUTH_STORAGE_KEYS)) sessionStorage.removeItem(key);
}
