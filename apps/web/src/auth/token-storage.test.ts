import { describe, expect, it } from 'vitest';
import { LEGACY_TOKEN_KEY, createTokenStore } from './token-storage';

const fresh = () => {
  localStorage.clear();
  sessionStorage.clear();
  return createTokenStore(localStorage, sessionStorage);
};

describe('token storage (spec 01 §4)', () => {
  it('keeps each account kind in its own slot', () => {
    const store = fresh();
    store.set('user', 'atu_1', { remember: false });
    store.set('partner', 'atp_1', { remember: false });
    store.set('admin', 'ata_1', { remember: true });
    store.set('admin_setup', 'ats_1', { remember: false });
    expect(sessionStorage.getItem('userToken')).toBe('atu_1');
    expect(sessionStorage.getItem('partnerToken')).toBe('atp_1');
    expect(localStorage.getItem('adminToken')).toBe('ata_1');
    expect(sessionStorage.getItem('adminSetupToken')).toBe('ats_1');
    store.clear('partner');
    expect(store.token('partner')).toBeNull();
    expect(store.token('user')).toBe('atu_1');
  });

  it('stores a remembered token in persistent storage and a plain one in session storage, never both', () => {
    const store = fresh();
    store.set('user', 'atu_remembered', { remember: true, expiresAt: '2030-01-01T00:00:00.000Z' });
    expect(localStorage.getItem('userToken')).toBe('atu_remembered');
    expect(sessionStorage.getItem('userToken')).toBeNull();
    expect(store.get('user')).toEqual({
      token: 'atu_remembered',
      remember: true,
      expiresAt: '2030-01-01T00:00:00.000Z',
    });

    store.set('user', 'atu_session', { remember: false });
    expect(sessionStorage.getItem('userToken')).toBe('atu_session');
    expect(localStorage.getItem('userToken')).toBeNull();
    expect(localStorage.getItem('userTokenExpiresAt')).toBeNull();
    expect(store.get('user')?.remember).toBe(false);
  });

  it('migrates a legacy single token into the user slot, keeping its persistence', () => {
    localStorage.clear();
    sessionStorage.clear();
    localStorage.setItem(LEGACY_TOKEN_KEY, 'atu_legacy');
    const store = createTokenStore(localStorage, sessionStorage);
    store.migrateLegacyToken();
    expect(localStorage.getItem(LEGACY_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem('userToken')).toBe('atu_legacy');
    expect(store.get('user')?.remember).toBe(true);

    localStorage.clear();
    sessionStorage.setItem(LEGACY_TOKEN_KEY, 'atu_legacy_session');
    store.migrateLegacyToken();
    expect(sessionStorage.getItem('userToken')).toBe('atu_legacy_session');
    expect(localStorage.getItem('userToken')).toBeNull();
  });

  it('does not let a legacy token overwrite a current user token', () => {
    const store = fresh();
    store.set('user', 'atu_current', { remember: false });
    localStorage.setItem(LEGACY_TOKEN_KEY, 'atu_old');
    store.migrateLegacyToken();
    expect(store.token('user')).toBe('atu_current');
    expect(localStorage.getItem(LEGACY_TOKEN_KEY)).toBeNull();
  });

  it('picks the bearer token in the order user, partner, admin', () => {
    const store = fresh();
    expect(store.bearer()).toBeNull();
    store.set('admin', 'ata_1', { remember: false });
    expect(store.bearer()).toBe('ata_1');
    store.set('partner', 'atp_1', { remember: true });
    expect(store.bearer()).toBe('atp_1');
    store.set('user', 'atu_1', { remember: false });
    expect(store.bearer()).toBe('atu_1');
    store.set('admin_setup', 'ats_1', { remember: false });
    store.clear('user');
    store.clear('partner');
    store.clear('admin');
    expect(store.bearer()).toBeNull();
  });

  it('notifies subscribers when a token is stored or removed', () => {
    const store = fresh();
    let calls = 0;
    const unsubscribe = store.subscribe(() => calls++);
    store.set('user', 'atu_1', { remember: false });
    store.clear('user');
    unsubscribe();
    store.set('user', 'atu_2', { remember: false });
    expect(calls).toBe(2);
  });

  it('behaves as empty when the browser refuses storage', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
    } as unknown as Storage;
    const store = createTokenStore(broken, broken);
    expect(() => store.set('user', 'atu_1', { remember: true })).not.toThrow();
    expect(store.token('user')).toBeNull();
  });
});
