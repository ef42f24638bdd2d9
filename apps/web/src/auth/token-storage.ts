import type { AccountKind } from '@attestly/contracts';

/** spec 01 §4 "Token storage": one slot per account kind. */
export const TOKEN_SLOTS: Record<AccountKind, string> = {
  user: 'userToken',
  partner: 'partnerToken',
  admin: 'adminToken',
  admin_setup: 'adminSetupToken',
};

/** The key older builds kept a single token under; it is moved into the user slot (spec 01 §4). */
export const LEGACY_TOKEN_KEY = 'token';

/** spec 01 §6: requests carry the first stored token in this order. */
export const BEARER_ORDER: readonly AccountKind[] = ['user', 'partner', 'admin'];

/** Kept beside the token, in the same storage, so the app can refresh before the server's expiry. */
const expirySlot = (kind: AccountKind) => `${TOKEN_SLOTS[kind]}ExpiresAt`;

export interface StoredToken {
  token: string;
  /** True when the token lives in persistent storage (remember me), false for session storage. */
  remember: boolean;
  expiresAt: string | null;
}

type Listener = () => void;

/** Storage can throw (disabled cookies, private modes, quota): a failing store behaves as an empty one. */
function read(storage: Storage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(storage: Storage | null, key: string, value: string | null): void {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Nothing more to do: the session simply will not survive a reload.
  }
}

/**
 * Per-kind bearer token storage (spec 01 §4): with remember-me the token lives in persistent storage
 * (localStorage), otherwise in session storage (this tab only); writing one side always clears the other, so only
 * one of the two ever holds a kind's token.
 */
export function createTokenStore(persistent: Storage | null, session: Storage | null) {
  const listeners = new Set<Listener>();
  const notify = () => listeners.forEach((listener) => listener());

  function get(kind: AccountKind): StoredToken | null {
    const slot = TOKEN_SLOTS[kind];
    for (const [storage, remember] of [
      [persistent, true],
      [session, false],
    ] as const) {
      const token = read(storage, slot);
      if (token) return { token, remember, expiresAt: read(storage, expirySlot(kind)) };
    }
    return null;
  }

  function set(
    kind: AccountKind,
    token: string,
    options: { remember: boolean; expiresAt?: string | null },
  ): void {
    const [keep, drop] = options.remember ? [persistent, session] : [session, persistent];
    write(drop, TOKEN_SLOTS[kind], null);
    write(drop, expirySlot(kind), null);
    write(keep, TOKEN_SLOTS[kind], token);
    write(keep, expirySlot(kind), options.expiresAt ?? null);
    notify();
  }

  function clear(kind: AccountKind): void {
    for (const storage of [persistent, session]) {
      write(storage, TOKEN_SLOTS[kind], null);
      write(storage, expirySlot(kind), null);
    }
    notify();
  }

  /** Moves a legacy single token into the user slot, in the storage it was found in (keeping its persistence). */
  function migrateLegacyToken(): void {
    for (const storage of [persistent, session]) {
      const legacy = read(storage, LEGACY_TOKEN_KEY);
      if (!legacy) continue;
      write(storage, LEGACY_TOKEN_KEY, null);
      if (!get('user')) set('user', legacy, { remember: storage === persistent });
    }
  }

  return {
    get,
    set,
    clear,
    migrateLegacyToken,
    token: (kind: AccountKind) => get(kind)?.token ?? null,
    has: (kind: AccountKind) => get(kind) !== null,
    /** spec 01 §6: the first stored token in the order user, partner, admin. */
    bearer(): string | null {
      for (const kind of BEARER_ORDER) {
        const token = get(kind)?.token;
        if (token) return token;
      }
      return null;
    },
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Another tab changed persistent storage (a remembered sign-in or sign-out): tell this tab's listeners. */
    notifyExternalChange: notify,
  };
}
export type TokenStore = ReturnType<typeof createTokenStore>;

function browserStorage(name: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window[name];
  } catch {
    return null;
  }
}

/** The app's token store over the browser's storages. */
export const tokens = createTokenStore(browserStorage('localStorage'), browserStorage('sessionStorage'));

if (typeof window !== 'undefined') {
  tokens.migrateLegacyToken();
  window.addEventListener('storage', (event) => {
    if (event.key === null || Object.values(TOKEN_SLOTS).includes(event.key)) tokens.notifyExternalChange();
  });
}
