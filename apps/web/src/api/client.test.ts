import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../auth/token-storage';
import { fakeApi } from '../test/render-app';
import { ApiError, apiFetch, configureApiClient, errorMessage } from './client';

afterEach(() => {
  vi.unstubAllGlobals();
});

function setPath(path: string) {
  const onUnauthorized = vi.fn();
  configureApiClient({ currentPath: () => path, onUnauthorized });
  return onUnauthorized;
}

describe('apiFetch', () => {
  it('prefixes /api/v1, sends JSON and the bearer token of the named kind', async () => {
    tokens.set('user', 'atu_user', { remember: false });
    tokens.set('partner', 'atp_partner', { remember: false });
    const calls = fakeApi({ 'PUT /api/v1/users/profile': { body: { ok: true } } });
    await expect(
      apiFetch('/users/profile', { method: 'PUT', body: { city: 'Leeds' }, auth: 'partner' }),
    ).resolves.toEqual({ ok: true });
    expect(calls[0]?.headers.Authorization).toBe('Bearer atp_partner');
    expect(calls[0]?.headers['Content-Type']).toBe('application/json');
    expect(calls[0]?.body).toEqual({ city: 'Leeds' });
  });

  it('uses the first stored token in the order user, partner, admin by default, and none for public calls', async () => {
    tokens.set('admin', 'ata_admin', { remember: false });
    tokens.set('partner', 'atp_partner', { remember: false });
    const calls = fakeApi({ 'GET /api/v1/anything': { body: {} }, 'GET /api/v1/site-config': { body: {} } });
    await apiFetch('/anything');
    await apiFetch('/site-config', { auth: 'none' });
    expect(calls[0]?.headers.Authorization).toBe('Bearer atp_partner');
    expect(calls[1]?.headers.Authorization).toBeUndefined();
  });

  it('turns the error envelope into a typed ApiError', async () => {
    setPath('/register');
    fakeApi({
      'POST /api/v1/users/register': {
        status: 422,
        body: {
          detail: 'Password must be at least 8 characters',
          code: 'validation.failed',
          errors: [{ path: 'password', message: 'Password must be at least 8 characters' }],
          request_id: 'req-1',
        },
      },
    });
    const error = await apiFetch('/users/register', { method: 'POST', body: {} }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'validation.failed', requestId: 'req-1' });
    expect((error as ApiError).errors).toEqual([
      { path: 'password', message: 'Password must be at least 8 characters' },
    ]);
    expect(errorMessage(error, 'Registration failed')).toBe('Password must be at least 8 characters');
    expect(errorMessage(new Error('boom'), 'Registration failed')).toBe('Registration failed');
  });

  it('reports a response without an envelope by its status', async () => {
    fakeApi({ 'GET /api/v1/broken': { status: 502 } });
    await expect(apiFetch('/broken')).rejects.toMatchObject({
      status: 502,
      detail: 'HTTP error! status: 502',
    });
  });

  it('reports an unreachable server as a network error', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(apiFetch('/users/profile')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('on a 401 removes the token of the kind the page belongs to and goes to that login, once', async () => {
    tokens.set('user', 'atu_user', { remember: true });
    tokens.set('partner', 'atp_partner', { remember: true });
    const onUnauthorized = setPath('/partner/sites');
    fakeApi({
      'GET /api/v1/partners/sites': { status: 401, body: { detail: 'Expired', code: 'auth.invalid_token' } },
    });
    await expect(apiFetch('/partners/sites', { auth: 'partner' })).rejects.toMatchObject({ status: 401 });
    expect(tokens.token('partner')).toBeNull();
    expect(tokens.token('user')).toBe('atu_user');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledWith('partner');
  });

  it('infers admin from /backoffice/ and user from any other path', async () => {
    tokens.set('user', 'atu_user', { remember: false });
    tokens.set('admin', 'ata_admin', { remember: false });
    fakeApi({ 'GET /api/v1/x': { status: 401, body: { detail: 'Expired', code: 'auth.invalid_token' } } });
    const admin = setPath('/backoffice/users');
    await apiFetch('/x').catch(() => undefined);
    expect(admin).toHaveBeenCalledWith('admin');
    expect(tokens.token('admin')).toBeNull();
    const user = setPath('/security');
    await apiFetch('/x').catch(() => undefined);
    expect(user).toHaveBeenCalledWith('user');
    expect(tokens.token('user')).toBeNull();
  });

  it('leaves tokens alone when sign-in or sign-up answers 401', async () => {
    tokens.set('user', 'atu_user', { remember: false });
    const onUnauthorized = setPath('/login');
    fakeApi({
      'POST /api/v1/users/login': {
        status: 401,
        body: { detail: 'Invalid email or password', code: 'auth.invalid_credentials' },
      },
    });
    await expect(apiFetch('/users/login', { method: 'POST', body: {}, auth: 'none' })).rejects.toMatchObject({
      detail: 'Invalid email or password',
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(tokens.token('user')).toBe('atu_user');
  });

  it('treats accepted statuses as data (503 from /readyz) and reaches root paths', async () => {
    const calls = fakeApi({ 'GET /readyz': { status: 503, body: { status: 'not_ready', checks: {} } } });
    await expect(apiFetch('/readyz', { root: true, acceptStatus: [503] })).resolves.toEqual({
      status: 'not_ready',
      checks: {},
    });
    expect(calls[0]?.url).toBe('/readyz');
  });
});
