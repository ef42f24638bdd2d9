import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../../auth/token-storage';
import { PROFILE, fakeApi, renderApp } from '../../test/render-app';
import { navSections, signOutDestination } from './nav-items';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('side navigation (spec 01 §2)', () => {
  it('shows the user links in user mode', () => {
    const sections = navSections({ pathname: '/profile', partnerSignedIn: false, isPartner: false });
    expect(sections.map((section) => section.items.map((item) => item.label))).toEqual([
      ['Dashboard', 'Profile', 'Verification', 'Connected sites', 'Security'],
    ]);
  });

  it('switches to partner mode on partner paths or when a partner is signed in', () => {
    for (const options of [
      { pathname: '/partner/dashboard', partnerSignedIn: false, isPartner: false },
      { pathname: '/dashboard', partnerSignedIn: true, isPartner: false },
    ]) {
      expect(navSections(options)[0]?.items.map((item) => item.label)).toEqual([
        'Dashboard',
        'Management',
        'Integration',
        'Audit Logs',
      ]);
    }
  });

  it('lists every partner section: sites, API keys, webhooks, demo, plans and subscription', () => {
    const sections = navSections({ pathname: '/partner/dashboard', partnerSignedIn: true, isPartner: false });
    expect(sections.map((section) => section.title)).toEqual([null, 'Set up', 'Billing']);
    expect(sections.flatMap((section) => section.items.map((item) => item.to))).toEqual([
      '/partner/dashboard',
      '/partner/management',
      '/partner/integration',
      '/partner/audit-logs',
      '/partner/sites',
      '/partner/api-keys',
      '/partner/webhooks',
      '/partner/demo',
      '/partner/plans',
      '/partner/subscription',
    ]);
  });

  it("adds a 'User Account' section in partner mode when the profile has is_partner", () => {
    const sections = navSections({ pathname: '/partner/sites', partnerSignedIn: true, isPartner: true });
    expect(sections.map((section) => section.title)).toEqual([null, 'Set up', 'Billing', 'User Account']);
    expect(sections[3]?.items[0]?.to).toBe('/dashboard');
  });

  it('signs partners out to /partner/login, users to /login from user pages and to / elsewhere', () => {
    expect(signOutDestination('/partner/dashboard', 'partner')).toBe('/partner/login');
    expect(signOutDestination('/security', 'user')).toBe('/login');
    expect(signOutDestination('/news', 'user')).toBe('/');
  });
});

describe('account menu', () => {
  it('signs out locally and goes to /login even when the server call fails', async () => {
    tokens.set('user', 'atu_valid', { remember: true });
    const calls = fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'POST /api/v1/users/logout': { status: 503 },
    });
    const { router } = await renderApp('/verification');
    await userEvent.click(await screen.findByRole('button', { name: /ada@example.com/ }));
    expect(screen.getAllByRole('link', { name: 'Profile' })).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/security');
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(tokens.token('user')).toBeNull();
    expect(localStorage.getItem('userToken')).toBeNull();
    expect(calls.some((call) => call.url === '/api/v1/users/logout')).toBe(true);
  });

  it('closes on Escape and returns focus to its button', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({ 'GET /api/v1/users/profile': { body: PROFILE } });
    await renderApp('/tokens');
    const button = await screen.findByRole('button', { name: /ada@example.com/ });
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });
});
