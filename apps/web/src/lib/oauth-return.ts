/**
 * The way back to an authorization in progress (issue 10 item 8). When the sign-in or consent screen sends someone
 * to create an account, reset a password or verify a fact, the screen to return to is kept here, so that those pages
 * can bring them back to the same authorization. Kept in localStorage (a reset link opens in a new tab) for an hour,
 * the lifetime of an interaction; only same-site /oauth/login or /oauth/consent paths are accepted (no open redirect).
 */
const KEY = 'attestly.oauthReturn';
const TTL_MS = 3600_000;
const RETURN_PATH = /^\/oauth\/(login|consent)\?uid=([A-Za-z0-9_-]{1,64})$/;

interface StoredReturn {
  path: string;
  uid: string;
  at: number;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** Accepts only /oauth/login?uid=… or /oauth/consent?uid=…; anything else is ignored. */
export function rememberReturn(path: string | null | undefined): boolean {
  const value = path ?? '';
  const match = RETURN_PATH.exec(value);
  if (!match?.[2]) return false;
  try {
    storage()?.setItem(
      KEY,
      JSON.stringify({ path: value, uid: match[2], at: Date.now() } satisfies StoredReturn),
    );
  } catch {
    return false;
  }
  return true;
}

export function pendingReturn(): StoredReturn | null {
  try {
    const text = storage()?.getItem(KEY);
    if (!text) return null;
    const stored = JSON.parse(text) as StoredReturn;
    if (Date.now() - stored.at > TTL_MS || !RETURN_PATH.test(stored.path)) {
      clearReturn();
      return null;
    }
    return stored;
  } catch {
    return null;
  }
}

export function clearReturn(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}

/**
 * Verification calls name the interaction the user came from, so that the verification counts for that partner's
 * site (the API checks that the interaction is this user's).
 */
export function interactionHeaders(): Record<string, string> {
  const stored = pendingReturn();
  return stored ? { 'X-Attestly-Interaction': stored.uid } : {};
}

/** The query string that carries the way back to another page (`?return_to=/oauth/login%3Fuid%3D…`). */
export const returnQuery = (path: string) => `return_to=${encodeURIComponent(path)}`;
