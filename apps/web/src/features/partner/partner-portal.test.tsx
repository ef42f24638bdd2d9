import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PartnerProfile, PartnerStats } from '@attestly/contracts';
import { partnerLoginHref, partnerNextPath } from '../../auth/guards';
import { tokens } from '../../auth/token-storage';
import { fakeApi, renderApp } from '../../test/render-app';
import { RecentVerifications } from './dashboard-page';

afterEach(() => {
  vi.unstubAllGlobals();
});

const PARTNER: PartnerProfile = {
  id: '5f0c2a36-64c5-4e7f-9d8e-3c8a4f6f1d10',
  email: 'owner@example.com',
  company_name: 'Acme Games',
  partner_name: 'Acme Games',
  contact_name: null,
  phone: null,
  website: null,
  business_type: null,
  status: 'active',
  email_verified: true,
  plan: 'free',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  last_login: null,
};

describe('partner registration at its own address (issue 25 item 13)', () => {
  it('is linked from /partner/login, lives at /partner/register and ends on a success page', async () => {
    const calls = fakeApi({
      'POST /api/v1/partners/register': { status: 201, body: { message: 'Partner registered successfully' } },
    });
    const { router } = await renderApp('/partner/login');
    await userEvent.click(await screen.findByRole('link', { name: 'Register your company' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/partner/register'));
    expect(await screen.findByRole('heading', { name: 'Register your company' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Work email'), 'owner@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'partner password 1');
    await userEvent.type(screen.getByLabelText('Company name'), 'Acme Games');
    // Typed without https://: accepted, and sent as the web address it names.
    await userEvent.type(screen.getByLabelText('Website (optional)'), 'games.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Create partner account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/partner/registered'));
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByText('owner@example.com')).toBeInTheDocument();
    const sent = calls.find((call) => call.url.endsWith('/partners/register'));
    expect(sent?.body).toMatchObject({ email: 'owner@example.com', website: 'https://games.example.com' });
    await userEvent.click(screen.getByRole('link', { name: 'Go to partner sign-in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/partner/login'));
    expect(await screen.findByLabelText('Email')).toHaveValue('owner@example.com');
  });

  it('shows the website problem in words when it is not a web address', async () => {
    fakeApi({});
    await renderApp('/partner/register');
    await userEvent.type(await screen.findByLabelText('Work email'), 'owner@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'partner password 1');
    await userEvent.type(screen.getByLabelText('Company name'), 'Acme Games');
    await userEvent.type(screen.getByLabelText('Website (optional)'), 'not a site');
    await userEvent.click(screen.getByRole('button', { name: 'Create partner account' }));
    expect(await screen.findByText('Enter a website address such as shop.example.com')).toBeInTheDocument();
  });
});

describe('deep links through the partner sign-in (issue 25 item 13)', () => {
  it('sends a signed-out partner to sign-in and back to the page asked for', async () => {
    fakeApi({
      'POST /api/v1/partners/login': {
        body: {
          access_token: 'atp_valid',
          token_type: 'bearer',
          expires_at: '2099-01-01T00:00:00.000Z',
          partner: PARTNER,
        },
      },
      'GET /api/v1/partners/profile': { body: PARTNER },
    });
    const { router } = await renderApp('/partner/plans?from=mail');
    await waitFor(() => expect(router.state.location.pathname).toBe('/partner/login'));
    expect(router.state.location.search).toMatchObject({ next: '/partner/plans?from=mail' });
    await userEvent.type(await screen.findByLabelText('Email'), 'owner@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'partner password 1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/partner/plans'));
    expect(tokens.token('partner')).toBe('atp_valid');
  });

  it('never leads outside the portal or back to a sign-in page', () => {
    expect(partnerNextPath('/partner/webhooks')).toBe('/partner/webhooks');
    for (const unsafe of [
      undefined,
      '',
      'https://evil.example/partner/x',
      '//evil.example/partner/',
      '/partner/\\evil',
      '/dashboard',
      '/partner/login',
      '/partner/register?x=1',
    ]) {
      expect(partnerNextPath(unsafe), String(unsafe)).toBe('/partner/dashboard');
    }
    expect(partnerLoginHref('/partner/sites')).toBe('/partner/login?next=%2Fpartner%2Fsites');
    expect(partnerLoginHref('/partner/dashboard')).toBe('/partner/login');
  });
});

describe('partner navigation (issue 25 item 13)', () => {
  it('has every section in the sidebar and opens API keys as a page', async () => {
    tokens.set('partner', 'atp_valid', { remember: false });
    fakeApi({
      'GET /api/v1/partners/profile': { body: PARTNER },
      'GET /api/v1/partners/api-keys': { body: { api_keys: [], total_count: 0 } },
    });
    const { router } = await renderApp('/partner/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Account' });
    for (const name of ['Sites', 'API Keys', 'Webhooks', 'Demo', 'Plans', 'Subscription']) {
      expect(within(nav).getByRole('link', { name })).toBeInTheDocument();
    }
    await userEvent.click(within(nav).getByRole('link', { name: 'API Keys' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/partner/api-keys'));
    expect(await screen.findByRole('heading', { level: 1, name: 'API keys' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'API Keys' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('recent verifications on the partner dashboard (issue 25 item 13)', () => {
  it('lists verifications only, and revocations apart', () => {
    const base = { user: 'sub-abcdefghijklmnop', location: 'London, GB', site_id: null, sandbox: false };
    const items: PartnerStats['recent_verifications'] = [
      {
        ...base,
        id: 'r1',
        type: 'token_revocation',
        status: 'success',
        verification_type: null,
        timestamp: '2026-11-02T10:00:00.000Z',
      },
      {
        ...base,
        id: 'v1',
        type: 'verification',
        status: 'success',
        verification_type: 'age',
        timestamp: '2026-11-01T10:00:00.000Z',
      },
    ];
    render(<RecentVerifications items={items} />);
    const recent = screen.getByRole('region', { name: 'Recent verifications' });
    expect(within(recent).getAllByRole('row')).toHaveLength(2);
    expect(recent).toHaveTextContent('age verification');
    expect(recent).not.toHaveTextContent(/revocation|revoked/i);
    const revoked = screen.getByRole('region', { name: 'Recently revoked access' });
    expect(within(revoked).getAllByRole('listitem')).toHaveLength(1);
  });
});
