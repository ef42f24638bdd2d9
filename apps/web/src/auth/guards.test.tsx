import { isRedirect } from '@tanstack/react-router';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROFILE, fakeApi, renderApp } from '../test/render-app';
import { guestOnly, partnerGuestOnly, requirePartner, requirePartnerProfile } from './guards';
import { tokens } from './token-storage';

afterEach(() => {
  vi.unstubAllGlobals();
});

const sessions = { body: { sessions: [], total_count: 0 } };

describe('route guards (spec 01 §2)', () => {
  it('sends a visitor without a token from a user page to /login', async () => {
    fakeApi({});
    const { router } = await renderApp('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('loads the profile for a signed-in user and shows the page in the common layout', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    const calls = fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/users/sessions': sessions,
    });
    const { router } = await renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ada' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(calls.find((call) => call.url === '/api/v1/users/profile')?.headers.Authorization).toBe(
      'Bearer atu_valid',
    );
    expect(screen.getByRole('navigation', { name: 'Account' })).toHaveTextContent(
      'DashboardProfileVerificationConnected sitesSecurity',
    );
  });

  it('sends a signed-in user away from /login and /register to /dashboard', async () => {
    tokens.set('user', 'atu_valid', { remember: true });
    fakeApi({ 'GET /api/v1/users/profile': { body: PROFILE }, 'GET /api/v1/users/sessions': sessions });
    const first = await renderApp('/login');
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/dashboard'));
    first.unmount();
    const second = await renderApp('/register');
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/dashboard'));
  });

  it('answers an unknown path with a page that says so and leads home', async () => {
    fakeApi({});
    const { router } = await renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    // The address stays as typed, so the person sees what was wrong with it.
    expect(router.state.location.pathname).toBe('/no/such/page');
    expect(screen.getByText('/no/such/page')).toBeInTheDocument();
    expect(document.title).toMatch(/^Page not found/);
    await userEvent.click(screen.getByRole('link', { name: 'Home page' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('points an unknown partner address to the partner sign-in, and a signed-in user to the dashboard', async () => {
    fakeApi({});
    const partner = await renderApp('/partner/no-such-section');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Partner sign-in' })).toHaveAttribute('href', '/partner/login');
    partner.unmount();
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({ 'GET /api/v1/users/profile': { body: PROFILE } });
    await renderApp('/dashbord');
    expect(await screen.findByRole('link', { name: 'Your dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('drops an expired token and goes to /login when the profile answers 401', async () => {
    tokens.set('user', 'atu_expired', { remember: true });
    fakeApi({
      'GET /api/v1/users/profile': {
        status: 401,
        body: { detail: 'Your session has expired. Please sign in again.', code: 'auth.invalid_token' },
      },
    });
    const { router } = await renderApp('/profile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(tokens.token('user')).toBeNull();
  });

  it('shows an error with a retry when the profile cannot be loaded for another reason', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({
      'GET /api/v1/users/profile': {
        status: 500,
        body: { detail: 'Internal error', code: 'internal_error' },
      },
    });
    const { router } = await renderApp('/profile');
    expect(await screen.findByText('Internal error')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/profile');
    expect(tokens.token('user')).toBe('atu_valid');
  });

  it('redirects partner-only user pages to /dashboard when the profile lacks is_partner', () => {
    const thrown = (() => {
      try {
        requirePartnerProfile({ ...PROFILE, is_partner: false });
      } catch (error) {
        return error;
      }
    })();
    expect(isRedirect(thrown)).toBe(true);
    expect((thrown as { options: { to: string } }).options.to).toBe('/dashboard');
    expect(() => requirePartnerProfile({ ...PROFILE, is_partner: true })).not.toThrow();
  });

  it('sends visitors without a partner token to /partner/login, and signed-in partners from it', () => {
    const capture = (fn: () => void) => {
      try {
        fn();
      } catch (error) {
        return error as { options: { href?: string; to?: string } };
      }
      return null;
    };
    expect(capture(requirePartner)?.options.href).toBe('/partner/login');
    expect(capture(partnerGuestOnly)).toBeNull();
    tokens.set('partner', 'atp_valid', { remember: false });
    expect(capture(requirePartner)).toBeNull();
    expect(capture(partnerGuestOnly)?.options.href).toBe('/partner/dashboard');
    expect(capture(guestOnly)).toBeNull();
  });
});
