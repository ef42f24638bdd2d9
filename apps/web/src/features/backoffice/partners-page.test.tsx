import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminPartnerDetail } from '@attestly/contracts';
import { fakeApi, renderApp } from '../../test/render-app';
import { signInAdmin } from './test-fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => signInAdmin());

const partner: AdminPartnerDetail = {
  id: '9d2e4c58-86e7-4091-9fa0-5eac6b8b3f32',
  partner_name: 'Acme Games',
  contact_name: 'Wile Coyote',
  contact_email: 'wile@acme.test',
  website: 'https://acme.test',
  phone: null,
  company_type: null,
  status: 'active',
  plan: 'starter',
  api_key: 'atk_live_ab12',
  webhook_url: null,
  rate_limits: null,
  business_address: null,
  verification_settings: {
    require_age_verification: true,
    require_location_verification: false,
    default_age_threshold: 18,
    allowed_verification_methods: ['document', 'facial_recognition'],
  },
  email_verified: true,
  created_at: '2026-10-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  last_login: null,
  total_sites: 0,
  total_verifications: 0,
  sites: [],
  statistics: {
    total_verifications: 10,
    successful_verifications: 7,
    failed_verifications: 2,
    pending_verifications: 1,
    total_sites: 0,
    active_oauth_auths: 0,
  },
};
const DETAIL = `/api/v1/admin/partners/${partner.id}`;

describe('partners (spec 02 §2 "Partner list", "Partner detail")', () => {
  it('lists partners and creates one with the required fields and skip_email_verification', async () => {
    const calls = fakeApi({
      'GET /api/v1/admin/partners?skip=0&limit=50': { body: { partners: [partner], total_count: 1 } },
      'POST /api/v1/admin/partners': {
        status: 201,
        body: { ...partner, temporary_password: 'first-Password-42' },
      },
      [`GET ${DETAIL}`]: { body: partner },
    });
    const { router } = await renderApp('/backoffice/partners');
    expect(await screen.findByRole('link', { name: 'Acme Games' })).toHaveAttribute(
      'href',
      `/backoffice/partners/${partner.id}`,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create Partner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Partner' });
    expect(within(dialog).getByLabelText('Plan')).toHaveValue('starter');
    await user.click(within(dialog).getByRole('button', { name: 'Create Partner' }));
    expect(await within(dialog).findByText('Partner name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Contact name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Email is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Website is required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Partner name'), 'Acme Games');
    await user.type(within(dialog).getByLabelText('Contact name'), 'Wile Coyote');
    await user.type(within(dialog).getByLabelText('Contact email'), 'wile@acme.test');
    await user.type(within(dialog).getByLabelText('Website'), 'https://acme.test');
    await user.click(within(dialog).getByRole('button', { name: 'Create Partner' }));
    // The first password is shown once, with Copy; Done opens the partner.
    expect(await within(dialog).findByTestId('temporary-password')).toHaveTextContent('first-Password-42');
    expect(within(dialog).getByRole('button', { name: 'Copy password' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/backoffice/partners');
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/backoffice/partners/${partner.id}`));
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      partner_name: 'Acme Games',
      contact_email: 'wile@acme.test',
      plan: 'starter',
      skip_email_verification: true,
      sign_in: 'show_password',
    });
  });

  it('sends an invitation mail instead when the operator chooses it, and shows no password', async () => {
    const calls = fakeApi({
      'GET /api/v1/admin/partners?skip=0&limit=50': { body: { partners: [], total_count: 0 } },
      'POST /api/v1/admin/partners': {
        status: 201,
        body: { ...partner, invitation_sent_to: 'wile@acme.test' },
      },
      [`GET ${DETAIL}`]: { body: partner },
    });
    const { router } = await renderApp('/backoffice/partners');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create Partner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Partner' });
    await user.type(within(dialog).getByLabelText('Partner name'), 'Acme Games');
    await user.type(within(dialog).getByLabelText('Contact name'), 'Wile Coyote');
    await user.type(within(dialog).getByLabelText('Contact email'), 'wile@acme.test');
    await user.type(within(dialog).getByLabelText('Website'), 'https://acme.test');
    await user.click(within(dialog).getByLabelText(/Send an invitation mail/));
    await user.click(within(dialog).getByRole('button', { name: 'Create Partner' }));
    expect(await screen.findByText('Partner created; invitation sent to wile@acme.test')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/backoffice/partners/${partner.id}`));
    expect(screen.queryByTestId('temporary-password')).toBeNull();
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ sign_in: 'send_invitation' });
  });

  it('shows the overview fallbacks, tabs, statistics and the empty sites text', async () => {
    fakeApi({ [`GET ${DETAIL}`]: { body: partner } });
    await renderApp(`/backoffice/partners/${partner.id}`);
    expect(await screen.findByRole('heading', { name: 'Acme Games', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByText('Not provided').length).toBeGreaterThan(0);
    expect(screen.getByText('Not specified')).toBeInTheDocument();
    expect(screen.getByText('Not configured')).toBeInTheDocument();
    expect(screen.getByText('Default limits')).toBeInTheDocument();
    expect(screen.getByText('Never')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Deactivate' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();

    const user = userEvent.setup();
    const overview = screen.getByRole('tab', { name: 'Overview' });
    overview.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Sites' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Sites (0)')).toBeInTheDocument();
    expect(screen.getByText('No sites created yet')).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Successful');
  });

  it('deactivates after confirmation and reloads the partner', async () => {
    let status = 'active';
    const calls = fakeApi({
      [`GET ${DETAIL}`]: () => ({ body: { ...partner, status } }),
      [`POST ${DETAIL}/deactivate`]: () => {
        status = 'suspended';
        return { body: { ...partner, status } };
      },
    });
    await renderApp(`/backoffice/partners/${partner.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate partner' });
    expect(dialog).toHaveTextContent('Are you sure you want to deactivate this partner?');
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'Chargebacks');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Partner deactivated successfully')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      reason: 'Chargebacks',
      notify_partner: true,
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Deactivate' })).toBeNull());
  });

  it('deletes after confirmation, and shows why when the server refuses', async () => {
    let refuse = true;
    fakeApi({
      [`GET ${DETAIL}`]: { body: partner },
      [`DELETE ${DETAIL}`]: () =>
        refuse
          ? {
              status: 409,
              body: {
                detail: 'This partner has verifications; deactivate it instead',
                code: 'partners.in_use',
              },
            }
          : { status: 204 },
      'GET /api/v1/admin/partners?skip=0&limit=50': { body: { partners: [], total_count: 0 } },
    });
    const { router } = await renderApp(`/backoffice/partners/${partner.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete partner' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText('This partner has verifications; deactivate it instead'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/backoffice/partners/${partner.id}`);
    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete partner' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Partner deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/backoffice/partners'));
  });

  it('says "Failed to delete partner" when the server gives no reason', async () => {
    fakeApi({
      [`GET ${DETAIL}`]: { body: partner },
      [`DELETE ${DETAIL}`]: { status: 500, body: undefined },
    });
    await renderApp(`/backoffice/partners/${partner.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete partner' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete partner')).toBeInTheDocument();
  });

  it('warns before regenerating and shows the new key once', async () => {
    fakeApi({
      [`GET ${DETAIL}`]: { body: partner },
      [`POST ${DETAIL}/regenerate-api-key`]: {
        body: { api_key: 'atk_live_secret_value', key_id: 'k1', message: 'API key regenerated' },
      },
    });
    await renderApp(`/backoffice/partners/${partner.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Regenerate API Key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Regenerate API Key' });
    expect(dialog).toHaveTextContent('The current API key will be invalidated');
    await user.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    expect(await screen.findByTestId('new-api-key')).toHaveTextContent('atk_live_secret_value');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText('atk_live_secret_value')).toBeNull());
  });

  it('creates a site with redirect URIs one per line and the default scopes', async () => {
    const calls = fakeApi({
      [`GET ${DETAIL}`]: { body: partner },
      [`POST ${DETAIL}/sites`]: {
        status: 201,
        body: { id: 's1', client_id: 'client-1', client_secret: 'shh-secret', site_name: 'Arcade' },
      },
    });
    await renderApp(`/backoffice/partners/${partner.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Sites' }));
    await user.click(screen.getByRole('button', { name: 'Create Site' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Site' });
    await user.click(within(dialog).getByRole('button', { name: 'Create Site' }));
    expect(await within(dialog).findByText('Site name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Domain is required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Site name'), 'Arcade');
    await user.type(within(dialog).getByLabelText('Domain'), 'arcade.acme.test');
    await user.type(
      within(dialog).getByLabelText('Redirect URIs'),
      'https://arcade.acme.test/cb{Enter}https://arcade.acme.test/cb2',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create Site' }));
    expect(await screen.findByText('shh-secret')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      site_name: 'Arcade',
      domain: 'arcade.acme.test',
      redirect_uris: ['https://arcade.acme.test/cb', 'https://arcade.acme.test/cb2'],
      allowed_scopes: ['basic_info', 'AGE_18'],
    });
  });

  it('says "Partner not found" for an unknown partner', async () => {
    fakeApi({ [`GET ${DETAIL}`]: { status: 404, body: { detail: 'Partner not found', code: 'not_found' } } });
    await renderApp(`/backoffice/partners/${partner.id}`);
    expect(await screen.findByText('Partner not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Back to Partners' })).toBeInTheDocument();
  });
});
