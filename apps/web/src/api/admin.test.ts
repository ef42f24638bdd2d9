import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../auth/token-storage';
import { NO_ADMIN_TOKEN, adminFetch } from './admin';
import { ApiError } from './client';

afterEach(() => {
  vi.unstubAllGlobals();
  tokens.clear('admin');
});

describe('admin calls without an admin token', () => {
  it('fail with spec 02’s "No admin token found" and send nothing', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    tokens.clear('admin');
    const failure = await adminFetch('/admin/system/stats').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe(NO_ADMIN_TOKEN);
    expect(NO_ADMIN_TOKEN).toBe('No admin token found');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('are sent once the tab holds one', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ ok: true }), { headers: { 'Content-Type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetch);
    tokens.set('admin', 'ata_test', { remember: false, expiresAt: '2099-01-01T00:00:00.000Z' });
    await expect(adminFetch('/admin/system/stats')).resolves.toEqual({ ok: true });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
