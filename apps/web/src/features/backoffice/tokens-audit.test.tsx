import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminAccessToken, AdminAuditLog, AdminOAuthAuthorization } from '@attestly/contracts';
import { fakeApi, renderApp } from '../../test/render-app';
import { auditParams, defaultAuditFilters } from './audit-page';
import { signInAdmin } from './test-fixtures';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
beforeEach(() => signInAdmin());

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

const token: AdminAccessToken = {
  id: 'AbCdEfGh1234567890ZyXwVuTs-_0123456789abcde',
  fingerprint: 'AbCdEfGh1234',
  kind: 'access_token',
  user_id: '7b0c2a36-64c5-4e7f-9d8e-3c8a4f6f1d10',
  partner_id: '9d2e4c58-86e7-4091-9fa0-5eac6b8b3f32',
  site_id: null,
  client_id: 'client-1',
  scopes: ['basic_info', 'AGE_18'],
  is_active: true,
  expires_at: inDays(3),
  created_at: inDays(-1),
  last_used_at: null,
};
const revoked: AdminAccessToken = {
  ...token,
  id: 'RevokedToken0000000000000001',
  fingerprint: 'RevokedToken',
  is_active: false,
};
const grant: AdminOAuthAuthorization = {
  id: 'grant_0123456789',
  user_id: token.user_id as string,
  user_email: 'ada@example.com',
  partner_id: token.partner_id as string,
  partner_name: 'Acme Games',
  site_id: 's1',
  site_name: 'Acme Arcade',
  scopes_granted: ['basic_info', 'AGE_18'],
  is_active: true,
  expires_at: inDays(300),
  consent_given_at: inDays(-65),
  last_used_at: null,
  revoked_at: null,
  revoked_reason: null,
};

describe('tokens and authorizations (spec 02 §2 "Tokens")', () => {
  it('defaults to Active Only, shows status and remaining time, and revokes after the spec confirmation', async () => {
    const calls = fakeApi({
      'GET /api/v1/admin/tokens?skip=0&limit=50&active_only=true': {
        body: { tokens: [token, revoked], total_count: 2 },
      },
      [`POST /api/v1/admin/tokens/${token.id}/revoke`]: { body: { ...token, is_active: false } },
      'GET /api/v1/admin/oauth-authorizations?skip=0&limit=50&active_only=true': {
        body: { authorizations: [grant], total_count: 1 },
      },
      [`POST /api/v1/admin/oauth-authorizations/${grant.id}/revoke`]: { body: {} },
    });
    await renderApp('/backoffice/tokens');
    expect(await screen.findByLabelText('Status')).toHaveValue('active');
    const [first, second] = (await screen.findAllByTestId('token-row')) as [HTMLElement, HTMLElement];
    // The fingerprint names the token; the opaque id is only the revoke path's key.
    expect(within(first).getByText('AbCdEfGh1234')).toBeInTheDocument();
    expect(within(first).queryByText(/ZyXwVuTs/)).toBeNull();
    expect(within(first).getByText(/^2d 23h|^3d 0h/)).toBeInTheDocument();
    expect(within(first).getByText('Active')).toBeInTheDocument();
    expect(within(first).getByText('Never')).toBeInTheDocument();
    expect(within(second).getByText('Revoked')).toBeInTheDocument();
    expect(within(second).queryByRole('button', { name: /Revoke/ })).toBeNull();

    const user = userEvent.setup();
    await user.click(within(first).getByRole('button', { name: /Revoke token/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke token' });
    expect(confirm).toHaveTextContent('Are you sure you want to revoke this token?');
    await user.click(within(confirm).getByLabelText('Tell the user by e-mail'));
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Token revoked successfully')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      reason: null,
      notify_user: true,
      notify_partner: false,
    });

    await user.click(screen.getByRole('tab', { name: 'OAuth Authorizations' }));
    const row = await screen.findByTestId('authorization-row');
    expect(row).toHaveTextContent('Acme Arcade');
    expect(row).toHaveTextContent('ada@example.com');
    expect(screen.getByText('Unique Users', { selector: 'dt' }).nextElementSibling).toHaveTextContent('1');
    await user.click(within(row).getByRole('button', { name: /Revoke authorization/ }));
    const confirmGrant = await screen.findByRole('dialog', { name: 'Revoke OAuth authorization' });
    expect(confirmGrant).toHaveTextContent('Are you sure you want to revoke this OAuth authorization?');
    await user.type(within(confirmGrant).getByLabelText('Reason (optional)'), 'Abuse report');
    await user.click(within(confirmGrant).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('OAuth authorization revoked successfully')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')[1]?.body).toEqual({
      reason: 'Abuse report',
      notify_user: false,
      notify_partner: false,
    });
  });

  it('filters by a person or partner name, or by a whole id', async () => {
    const calls = fakeApi({
      'GET /api/v1/admin/tokens?skip=0&limit=50&active_only=true': { body: { tokens: [], total_count: 0 } },
      'GET /api/v1/admin/tokens?skip=0&limit=50&user=ada&active_only=true': {
        body: { tokens: [token], total_count: 1 },
      },
      [`GET /api/v1/admin/tokens?skip=0&limit=50&user_id=${token.user_id}&active_only=true`]: {
        body: { tokens: [token], total_count: 1 },
      },
      [`GET /api/v1/admin/tokens?skip=0&limit=50&user_id=${token.user_id}&partner=acme&active_only=true`]: {
        body: { tokens: [token], total_count: 1 },
      },
    });
    await renderApp('/backoffice/tokens');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('User'), 'ada');
    expect(await screen.findByTestId('token-row')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('User'));
    await user.type(screen.getByLabelText('User'), token.user_id as string);
    await user.type(screen.getByLabelText('Partner'), 'acme');
    await waitFor(() =>
      expect(calls.map((call) => call.url)).toContain(
        `/api/v1/admin/tokens?skip=0&limit=50&user_id=${token.user_id}&partner=acme&active_only=true`,
      ),
    );
    // Never a single letter: it would match nearly everyone.
    expect(calls.every((call) => !call.url.includes('user=a&'))).toBe(true);
  });
});

const log: AdminAuditLog = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  event_type: 'partner.deactivated',
  event: 'partner.deactivated',
  actor_email: 'root@attestly.test',
  user_email: null,
  partner_name: 'Acme Games',
  severity: 'warning',
  timestamp: '2026-11-26T08:00:00.000Z',
  user_id: null,
  partner_id: '9d2e4c58-86e7-4091-9fa0-5eac6b8b3f32',
  admin_user_id: '0f9b7c1e-2a4d-4e8f-9b1c-3d5e7f9a1b2c',
  ip_address: '10.0.0.7',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
  details: { reason: 'Chargebacks' },
  metadata: { hash: 'h', prev_hash: 'p' },
};

/** The partner's own sign-in: no administrator, no user. */
const partnerLog: AdminAuditLog = {
  ...log,
  id: 'a1b2c3d4-0000-4000-8000-000000000002',
  event_type: 'partner.login_succeeded',
  event: 'partner.login_succeeded',
  severity: 'info',
  admin_user_id: null,
  actor_email: null,
  details: {},
};

describe('audit logs (spec 02 §2 "Audit")', () => {
  it('defaults to the last 7 days and applies the range only with both ends', () => {
    const now = new Date(2026, 10, 26, 12, 0, 0);
    const filters = defaultAuditFilters(now);
    expect(filters.start).toBe('2026-11-19');
    expect(filters.end).toBe('2026-11-26');
    const both = auditParams(filters, 0);
    expect(both.limit).toBe(100);
    expect(Date.parse(both.end_date as string) - Date.parse(both.start_date as string)).toBeGreaterThan(
      7 * 86_400_000,
    );
    expect(auditParams({ ...filters, end: '' }, 0)).toMatchObject({
      start_date: undefined,
      end_date: undefined,
    });
  });

  it('lists entries with actor, source and severity, opens the details, and refreshes every 30 seconds', async () => {
    let served = 0;
    const calls = fakeApi({});
    // Any audit query (its dates depend on today) answers with the entry.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input);
        calls.push({ method: 'GET', url, headers: {}, body: undefined });
        if (url.startsWith('/api/v1/admin/audit-logs?')) served++;
        return new Response(JSON.stringify({ audit_logs: [log, partnerLog], total_count: 2 }), {
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await renderApp('/backoffice/audit');
    const [row, partnerRow] = (await screen.findAllByTestId('audit-row')) as [HTMLElement, HTMLElement];
    // A partner acting in its own portal is named as the actor, not "System".
    expect(partnerRow).toHaveTextContent('PartnerAcme Games');
    expect(screen.getByText('Auto-refresh every 30 seconds')).toBeInTheDocument();
    expect(row).toHaveTextContent('WARNING');
    expect(row).toHaveTextContent('Admin');
    // Who acted and on what, by e-mail and name rather than an id.
    expect(row).toHaveTextContent('root@attestly.test');
    expect(row).toHaveTextContent('Partner Acme Games');
    expect(row).toHaveTextContent('10.0.0.7');
    expect(row).toHaveTextContent('Mozilla/5.0');
    expect(row).not.toHaveTextContent('X11');
    const first = calls.find((call) => call.url.startsWith('/api/v1/admin/audit-logs?'))?.url ?? '';
    expect(first).toContain('limit=100');
    expect(first).toContain('start_date=');
    expect(first).toContain('end_date=');
    expect(screen.getByText('Partner Events', { selector: 'dt' }).nextElementSibling).toHaveTextContent('2');
    expect(screen.getByText('Admin Actions', { selector: 'dt' }).nextElementSibling).toHaveTextContent('1');

    const before = served;
    await vi.advanceTimersByTimeAsync(30_000);
    await waitFor(() => expect(served).toBeGreaterThan(before));

    vi.useRealTimers();
    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: /Details of partner.deactivated/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Audit log details' });
    expect(dialog).toHaveTextContent('"reason": "Chargebacks"');
    expect(dialog).toHaveTextContent(log.admin_user_id as string);
  });
});
