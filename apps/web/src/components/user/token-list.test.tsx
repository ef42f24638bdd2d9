import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserToken } from '@attestly/contracts';
import { tokens } from '../../auth/token-storage';
import { PROFILE, fakeApi, renderApp } from '../../test/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
});

const grant: UserToken = {
  id: 'grant-1',
  site_id: 'site-1',
  site_name: 'Acme Games',
  partner_id: 'partner-1',
  partner_name: 'Acme Ltd',
  age_threshold: 18,
  scopes: ['basic_info', 'AGE_18'],
  created_at: '2026-11-01T10:00:00.000Z',
  expires_at: '2027-11-01T10:00:00.000Z',
  last_used_at: null,
  revoked: false,
  revoked_at: null,
  jurisdiction: null,
};

describe('connected sites (/tokens) in plain language', () => {
  it('is called "Connected sites" and lists what each site may see in the consent screen’s words', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/users/tokens': { body: { tokens: [grant], total_count: 1 } },
      'GET /api/v1/users/connected-partners': { body: { partners: [], total_count: 0 } },
    });
    await renderApp('/tokens');
    expect(await screen.findByRole('heading', { name: 'Connected sites', level: 1 })).toBeInTheDocument();
    expect(document.title).toMatch(/^Connected sites/);
    const row = await screen.findByTestId('token-row');
    expect(within(row).getByText('Basic information · Age 18 or over')).toBeInTheDocument();
    expect(row.textContent).not.toMatch(/basic_info|AGE_18/);
    expect(
      within(screen.getByRole('navigation', { name: 'Account' })).getByRole('link', {
        name: 'Connected sites',
      }),
    ).toHaveAttribute('href', '/tokens');
  });

  it('names the site and what it loses before revoking, and revokes that grant', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    const calls = fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/users/tokens': { body: { tokens: [grant], total_count: 1 } },
      'DELETE /api/v1/users/tokens/grant-1': { body: { message: 'Token revoked successfully' } },
    });
    await renderApp('/tokens');
    const row = await screen.findByTestId('token-row');
    await userEvent.click(within(row).getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: "Revoke Acme Games's access" });
    expect(dialog).toHaveTextContent('Are you sure you want to revoke this token?');
    const consequences = within(dialog).getByTestId('revoke-consequences');
    expect(consequences).toHaveTextContent('Acme Games (Acme Ltd) will no longer be able to check:');
    expect(
      within(consequences)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Basic information', 'Age 18 or over']);
    expect(consequences).toHaveTextContent(/ask for your consent again/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Token revoked successfully')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE' && call.url.endsWith('/users/tokens/grant-1'))).toBe(
      true,
    );
  });
});
