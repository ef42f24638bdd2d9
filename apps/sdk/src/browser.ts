/**
 * @attestly/sdk/browser — opens Attestly's sign-in and consent screens in a popup and runs the authorization code
 * flow with PKCE (S256) and state, resolving with the code your server (or, for public sites, this page) exchanges
 * at /oauth2/token.
 *
 *   const result = await openConsentPopup({ baseUrl: 'https://verify.example.com', clientId: 'atc_…',
 *     redirectUri: 'https://shop.example.com/attestly/callback', scopes: ['basic_info', 'AGE_18'] });
 *
 * The redirect URI must be on this page's origin (the helper reads the popup's address once it returns there), or
 * the page at the redirect URI calls `handlePopupCallback()`.
 */

export interface ConsentPopupOptions {
  baseUrl: string;
  clientId: string;
  redirectUri: string;
  /** Product scopes; basic_info is always asked for. `openid` is added. */
  scopes?: string[];
  /** 500 × 700 by default (spec 01 §9). */
  width?: number;
  height?: number;
  /** The popup window's name. */
  title?: string;
  /** Give up after this long (default 10 minutes). */
  timeoutMs?: number;
}

export interface ConsentResult {
  code: string;
  state: string;
  /** Send it with the code to /oauth2/token. */
  codeVerifier: string;
  redirectUri: string;
  scopes: string[];
}

/** The user denied, closed the popup, or the flow failed; `error` is the OAuth error code where there is one. */
export class ConsentError extends Error {
  readonly error: string;
  readonly errorDescription: string;
  constructor(error: string, description: string) {
    super(description);
    this.name = 'ConsentError';
    this.error = error;
    this.errorDescription = description;
  }
}

const CALLBACK_MESSAGE = 'attestly:consent-callback';

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** RFC 7636: 32 random bytes as the verifier, SHA-256 of it as the S256 challenge (spec 01 §9). */
export async function createPkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

export function buildAuthorizationUrl(
  options: Pick<ConsentPopupOptions, 'baseUrl' | 'clientId' | 'redirectUri' | 'scopes'>,
  pkce: { challenge: string },
  state: string,
): string {
  const scopes = ['openid', ...new Set(['basic_info', ...(options.scopes ?? [])])];
  const query = new URLSearchParams({
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: scopes.join(' '),
    state,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
  });
  return `${options.baseUrl.replace(/\/+$/, '')}/oauth2/authorize?${query.toString()}`;
}

function sameTarget(href: string, redirectUri: string): boolean {
  try {
    const url = new URL(href);
    const target = new URL(redirectUri);
    return url.origin === target.origin && url.pathname === target.pathname;
  } catch {
    return false;
  }
}

/** Opens the consent popup and resolves with the authorization code (or rejects with a ConsentError). */
export async function openConsentPopup(options: ConsentPopupOptions): Promise<ConsentResult> {
  const width = options.width ?? 500;
  const height = options.height ?? 700;
  const pkce = await createPkcePair();
  const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const url = buildAuthorizationUrl(options, pkce, state);
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  const name = (options.title ?? 'Attestly verification').replace(/[^A-Za-z0-9_]/g, '_');
  const popup = window.open(url, name, `popup=yes,width=${width},height=${height},left=${left},top=${top}`);
  if (!popup) throw new ConsentError('popup_blocked', 'The browser blocked the verification window');
  const scopes = ['basic_info', ...(options.scopes ?? []).filter((scope) => scope !== 'basic_info')];

  return new Promise<ConsentResult>((resolve, reject) => {
    let settled = false;
    const finish = (href: string) => {
      if (settled) return;
      settled = true;
      cleanup();
      popup.close();
      const params = new URL(href).searchParams;
      if (params.get('state') !== state) {
        reject(new ConsentError('invalid_state', 'Invalid state parameter - possible CSRF attack'));
      } else if (params.get('error')) {
        reject(
          new ConsentError(
            params.get('error') as string,
            params.get('error_description') ?? 'Authorization failed',
          ),
        );
      } else if (!params.get('code')) {
        reject(new ConsentError('no_code', 'No authorization code received'));
      } else {
        resolve({
          code: params.get('code') as string,
          state,
          codeVerifier: pkce.verifier,
          redirectUri: options.redirectUri,
          scopes,
        });
      }
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string; href?: string } | null;
      if (event.source !== popup || data?.type !== CALLBACK_MESSAGE || typeof data.href !== 'string') return;
      if (event.origin !== new URL(options.redirectUri).origin) return;
      finish(data.href);
    };
    const timer = setInterval(() => {
      if (popup.closed) {
        if (settled) return;
        settled = true;
        cleanup();
        reject(new ConsentError('popup_closed', 'The verification window was closed before it finished'));
        return;
      }
      try {
        // Readable only once the popup is back on this page's origin (cross-origin reads throw).
        const href = popup.location.href;
        if (sameTarget(href, options.redirectUri)) finish(href);
      } catch {
        // Still on Attestly's screens.
      }
    }, 200);
    const timeout = setTimeout(
      () => {
        if (settled) return;
        settled = true;
        cleanup();
        popup.close();
        reject(new ConsentError('timeout', 'The verification took too long'));
      },
      options.timeoutMs ?? 10 * 60_000,
    );
    function cleanup() {
      clearInterval(timer);
      clearTimeout(timeout);
      window.removeEventListener('message', onMessage);
    }
    window.addEventListener('message', onMessage);
  });
}

/** For a redirect page on another path or origin than the opener expects: hands its address back and closes. */
export function handlePopupCallback(targetOrigin: string = window.location.origin): boolean {
  if (!window.opener) return false;
  (window.opener as Window).postMessage({ type: CALLBACK_MESSAGE, href: window.location.href }, targetOrigin);
  window.close();
  return true;
}

export interface TokenSet {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

/**
 * For public sites (no client secret): exchanges the code at /oauth2/token with the PKCE verifier. Confidential
 * sites exchange the code on their server with the client secret instead.
 */
export async function exchangeCode(
  options: Pick<ConsentPopupOptions, 'baseUrl' | 'clientId'>,
  result: Pick<ConsentResult, 'code' | 'codeVerifier' | 'redirectUri'>,
): Promise<TokenSet> {
  const response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: result.code,
      redirect_uri: result.redirectUri,
      client_id: options.clientId,
      code_verifier: result.codeVerifier,
    }),
  });
  const body = (await response.json()) as TokenSet & { error?: string; error_description?: string };
  if (!response.ok)
    throw new ConsentError(body.error ?? 'token_error', body.error_description ?? 'Token exchange failed');
  return body;
}

/** GET /oauth2/userinfo: the claims the user agreed to share (a fact that is not proven is absent, never false). */
export async function fetchUserInfo(baseUrl: string, accessToken: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/oauth2/userinfo`, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
  });
  if (!response.ok) throw new ConsentError('userinfo_error', `HTTP error! status: ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}
