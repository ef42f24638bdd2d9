import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userKeys } from '../api/users';
import { PROFILE, fakeApi } from '../test/render-app';
import { REFRESH_MARGIN_MS, refreshUserSession, signOut, userSessionNeedsRefresh } from './session';
import { toastStore } from '../lib/toast';
import { tokens } from './token-storage';

afterEach(() => {
  vi.unstubAllGlobals();
});

const refreshed = {
  user: PROFILE,
  access_token: 'atu_rotated',
  token_type: 'Bearer',
  expires_at: '2031-01-01T00:00:00.000Z',
};

describe('session (spec 01 §4)', () => {
  it('a refresh replaces the token and keeps the remember preference', async () => {
    tokens.set('user', 'atu_old', { remember: true, expiresAt: '2030-01-01T00:00:00.000Z' });
    const calls = fakeApi({ 'POST /api/v1/users/refresh-token': { body: refreshed } });
    const queryClient = new QueryClient();
    await expect(refreshUserSession(queryClient)).resolves.toBe(true);
    expect(calls[0]?.headers.Authorization).toBe('Bearer atu_old');
    expect(tokens.get('user')).toEqual({
      token: 'atu_rotated',
      remember: true,
      expiresAt: '2031-01-01T00:00:00.000Z',
    });
    expect(localStorage.getItem('userToken')).toBe('atu_rotated');
    expect(queryClient.getQueryData(userKeys.profile())).toEqual(PROFILE);
  });

  it('a failed refresh clears the user and the token', async () => {
    tokens.set('user', 'atu_old', { remember: false });
    fakeApi({
      'POST /api/v1/users/refresh-token': {
        status: 401,
        body: { detail: 'Expired', code: 'auth.invalid_token' },
      },
    });
    const queryClient = new QueryClient();
    queryClient.setQueryData(userKeys.profile(), PROFILE);
    await expect(refreshUserSession(queryClient)).resolves.toBe(false);
    expect(tokens.token('user')).toBeNull();
    expect(queryClient.getQueryData(userKeys.profile())).toBeUndefined();
    expect(toastStore.snapshot().map((item) => item.message)).toContain('Expired');
  });

  it('a failed refresh without a server message says the spec’s fallback, not nothing', async () => {
    tokens.set('user', 'atu_old', { remember: false });
    fakeApi({ 'POST /api/v1/users/refresh-token': { status: 502, body: undefined } });
    await expect(refreshUserSession(new QueryClient())).resolves.toBe(false);
    expect(toastStore.snapshot().map((item) => item.message)).toContain('Token refresh failed');
  });

  it('refreshes only when the token is close to its expiry', () => {
    const now = Date.parse('2030-01-01T00:00:00.000Z');
    tokens.set('user', 'atu_1', {
      remember: false,
      expiresAt: new Date(now + REFRESH_MARGIN_MS + 60_000).toISOString(),
    });
    expect(userSessionNeedsRefresh(now)).toBe(false);
    tokens.set('user', 'atu_1', {
      remember: false,
      expiresAt: new Date(now + REFRESH_MARGIN_MS - 60_000).toISOString(),
    });
    expect(userSessionNeedsRefresh(now)).toBe(true);
  });

  it('logout clears the token of that account type even when the server call fails', async () => {
    tokens.set('user', 'atu_1', { remember: true });
    tokens.set('partner', 'atp_1', { remember: true });
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
    await signOut(new QueryClient(), 'user');
    expect(tokens.token('user')).toBeNull();
    expect(tokens.token('partner')).toBe('atp_1');
  });
});
