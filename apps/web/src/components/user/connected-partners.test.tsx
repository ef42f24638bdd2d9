import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConnectedPartner, UserToken } from '@attestly/contracts';
import { tokens } from '../../auth/token-storage';
import { PROFILE, fakeApi, renderApp } from '../../test/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
});

const grant = (id: string, site: string): UserToken => ({
  id,
  site_id: `site-${id}`,
  site_name: site,
  partner_id: 'b3f7c1de-2a4e-4c1b-9a53-0f1e2d3c4b5a',
  partner_name: 'Acme Ltd',
  age_threshold: 18,
  scopes: ['basic_info', 'AGE_18'],
  created_at: '2026-11-01T10:00:00.000Z',
  expires_at: '2027-11-01T10:00:00.000Z',
  last_used_at: null,
  revoked: false,
  revoked_at: null,
  jurisdiction: null,
});

const acme: ConnectedPartner = {
  id: 'b3f7c1de-2a4e-4c1b-9a53-0f1e2d3c4b5a',
  partner_name: 'Acme Ltd',
  sites: [
    { id: 'site-g1', site_name: 'Acme Games', domain: 'games.acme.example' },
    { id: 'site-g2', site_name: 'Acme Shop', domain: 'shop.acme.example' },
  ],
  scopes: ['basic_info', 'AGE_18'],
  active_tokens: 2,
  first_connected_at: '2026-11-01T10:00:00.000Z',
  last_used_at: '2026-11-20T10:00:00.000Z',
};

describe('connected sites (/tokens): the companies behind them', () => {
  it('lists each company with its sites and what it may see, and disconnects it after confirmation', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    let disconnected = false;
    const calls = fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/users/tokens': () => ({
        body: disconnected
          ? { tokens: [], total_count: 0 }
          : { tokens: [grant('g1', 'Acme Games'), grant('g2', 'Acme Shop')], total_count: 2 },
      }),
      'GET /api/v1/users/connected-partners': () => ({
        body: disconnected ? { partners: [], total_count: 0 } : { partners: [acme], total_count: 1 },
      }),
      [`DELETE /api/v1/users/connected-partners/${acme.id}`]: () => {
        disconnected = true;
        return { body: { revoked_tokens: 2 } };
      },
    });
    await renderApp('/tokens');

    const card = await screen.findByRole('region', { name: 'Companies that can see your verified facts' });
    const row = await within(card).findByTestId('partner-row');
    expect(row).toHaveTextContent('Acme Ltd');
    expect(row).toHaveTextContent('Acme Games (games.acme.example), Acme Shop (shop.acme.example)');
    expect(row).toHaveTextContent('Basic information · Age 18 or over');
    expect(row).toHaveTextContent('2 active tokens');
    expect(row.textContent).not.toMatch(/basic_info|AGE_18/);

    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: 'Disconnect Acme Ltd' }));
    const confirm = await screen.findByRole('dialog', { name: 'Disconnect Acme Ltd?' });
    expect(confirm).toHaveTextContent('This revokes the 2 active tokens of all its sites.');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Disconnect' }));

    expect(await screen.findByText('Disconnected Acme Ltd: 2 token(s) revoked')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([
      `/api/v1/users/connected-partners/${acme.id}`,
    ]);
    // Both lists are fetched again: the company and its sites' tokens are gone.
    expect(
      await within(card).findByText('No company can currently see anything about you.'),
    ).toBeInTheDocument();
    expect(await screen.findByText(/You have not connected any site yet/)).toBeInTheDocument();
  });
});
