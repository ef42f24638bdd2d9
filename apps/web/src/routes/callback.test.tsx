import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../lib/toast';
import { fakeApi, renderApp } from '../test/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('/callback', () => {
  it('explains a bare visit instead of reporting an attack, and stays put', async () => {
    fakeApi({});
    const { router } = await renderApp('/callback');
    expect(await screen.findByRole('heading', { name: 'Nothing to complete here' })).toBeInTheDocument();
    expect(screen.queryByText(/CSRF/)).toBeNull();
    expect(toastStore.snapshot().map((item) => item.message)).not.toContain(
      'Invalid state parameter - possible CSRF attack',
    );
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(router.state.location.pathname).toBe('/callback');
  });

  it('keeps the spec’s message for an answer whose state does not match', async () => {
    fakeApi({});
    sessionStorage.setItem('oauth_state', 'expected-state');
    await renderApp('/callback?code=abc&state=forged');
    expect(await screen.findByRole('heading', { name: 'Authorization failed' })).toBeInTheDocument();
    expect(screen.getAllByText('Invalid state parameter - possible CSRF attack').length).toBeGreaterThan(0);
  });
});
