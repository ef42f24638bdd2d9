import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../auth/token-storage';
import { PROFILE, fakeApi, renderApp } from '../test/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** issue 25 item 12: a screen's default options stay out of its address. */
describe('clean addresses', () => {
  it('reaches /login from a link without ?email=&registered=false', async () => {
    fakeApi({});
    const { router } = await renderApp('/register');
    await userEvent.click(await screen.findByRole('link', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.href).toBe('/login');
  });

  it('keeps the values that matter: sign-up still lands on /login?email=…&registered=true', async () => {
    fakeApi({});
    const { router } = await renderApp('/login?email=ada%40example.com&registered=true');
    expect(await screen.findByLabelText('Email')).toHaveValue('ada@example.com');
    expect(router.state.location.search).toMatchObject({ email: 'ada@example.com', registered: true });
    expect(router.state.location.href).toContain('registered=true');
  });

  it('opens /verification from the navigation without an empty ?return_to=', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/users/verification-status': { body: { verifications: [], total_count: 0 } },
      'GET /api/v1/users/tokens': { body: { tokens: [], total_count: 0 } },
    });
    const { router } = await renderApp('/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Account' });
    await userEvent.click(
      [...nav.querySelectorAll('a')].find((link) => link.getAttribute('href') === '/verification')!,
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/verification'));
    expect(router.state.location.href).toBe('/verification');
  });

  it('drops an empty parameter typed into the address', async () => {
    fakeApi({});
    const { router } = await renderApp('/news?category=All&saved=false');
    await waitFor(() => expect(router.state.location.href).toBe('/news'));
  });
});
