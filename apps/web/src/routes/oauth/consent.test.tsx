import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InteractionDetails } from '@attestly/contracts';
import { fakeApi, renderApp } from '../../test/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
});

const scope = (name: string, title: string, extra: Partial<InteractionDetails['scopes'][number]> = {}) => ({
  scope: name as InteractionDetails['scopes'][number]['scope'],
  title,
  description: `${title} description`,
  required: false,
  proven: true,
  previously_granted: false,
  ...extra,
});

function interaction(scopes: InteractionDetails['scopes'], sandbox = false): InteractionDetails {
  const details = {
    uid: 'uid-1234567890',
    prompt: 'consent',
    reasons: ['op_scopes_missing'],
    site: {
      client_id: 'client-1',
      site_name: 'Acme Shop',
      domain: 'shop.example.com',
      icon_url: null,
      partner_name: 'Acme',
      redirect_host: 'shop.example.com',
      sandbox: false,
    },
    scopes,
    unproven_scopes: [],
    user: { email: 'alex@example.com', full_name: 'Alex' },
    verify_url: null,
    wallet: null,
  } as InteractionDetails;
  details.site.sandbox = sandbox;
  return details;
}

describe('/oauth/consent (issue 15 item 4: name and e-mail are optional)', () => {
  it('leaves name and e-mail unticked and marked optional, and sends only what stays ticked', async () => {
    const calls = fakeApi({
      'GET /api/v1/oauth/interactions/uid-1234567890': {
        body: interaction([
          scope('basic_info', 'Basic information', { required: true }),
          scope('profile', 'Your name'),
          scope('email', 'Your e-mail address'),
          scope('AGE_18', 'Age 18 or over'),
        ]),
      },
      'POST /api/v1/oauth/interactions/uid-1234567890/consent': {
        body: { redirect_to: 'https://shop.example.com/cb' },
      },
    });
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    await renderApp('/oauth/consent?uid=uid-1234567890');

    const name = await screen.findByRole('checkbox', { name: /Your name/ });
    expect(name).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Your e-mail address/ })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Age 18 or over/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Basic information/ })).toBeChecked();
    expect(screen.getAllByText('(optional)')).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://shop.example.com/cb'));
    const consent = calls.find((call) => call.method === 'POST');
    expect((consent?.body as { scopes: string[] }).scopes.sort()).toEqual(['AGE_18', 'basic_info']);
  });

  it('keeps name and e-mail ticked when the user shared them with this site before', async () => {
    fakeApi({
      'GET /api/v1/oauth/interactions/uid-1234567890': {
        body: interaction([
          scope('basic_info', 'Basic information', { required: true }),
          scope('profile', 'Your name', { previously_granted: true }),
          scope('email', 'Your e-mail address'),
        ]),
      },
    });
    await renderApp('/oauth/consent?uid=uid-1234567890');
    expect(await screen.findByRole('checkbox', { name: /Your name/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Your e-mail address/ })).not.toBeChecked();
  });

  it('warns on a sandbox site that it is a test site, and not on a live one', async () => {
    fakeApi({
      'GET /api/v1/oauth/interactions/uid-1234567890': {
        body: interaction([scope('basic_info', 'Basic information', { required: true })], true),
      },
    });
    await renderApp('/oauth/consent?uid=uid-1234567890');
    expect(await screen.findByRole('note')).toHaveTextContent('Test site — do not enter real data');
  });

  it('shows no test-site warning for a live site', async () => {
    fakeApi({
      'GET /api/v1/oauth/interactions/uid-1234567890': {
        body: interaction([scope('basic_info', 'Basic information', { required: true })]),
      },
    });
    await renderApp('/oauth/consent?uid=uid-1234567890');
    expect(await screen.findByRole('checkbox', { name: /Basic information/ })).toBeChecked();
    expect(screen.queryByText(/Test site/)).toBeNull();
  });
});

describe('/oauth/consent for a registered wallet (issue 24 item 3)', () => {
  const walletInteraction = (wallet: NonNullable<InteractionDetails['wallet']>): InteractionDetails => ({
    ...interaction([]),
    site: {
      client_id: 'eu.example.wallet',
      site_name: 'Example Wallet',
      domain: 'Wallet app',
      icon_url: null,
      partner_name: 'registered by the operator of this Attestly',
      redirect_host: 'eudi-openid4ci://authorize',
      sandbox: false,
    },
    verify_url: wallet.refused ? '/verification?return_to=x' : null,
    wallet,
  });

  it('shows the credentials asked for and what they will state, and adds them on the wallet consent', async () => {
    const calls = fakeApi({
      'GET /api/v1/oauth/interactions/uid-1234567890': {
        body: walletInteraction({
          credentials: [{ id: 'proof_of_age', name: 'Proof of age (ISO mdoc, EU age verification)' }],
          age_over: { '12': true, '16': true, '18': true, '21': false },
          valid_until: '2027-02-24',
          refused: null,
        }),
      },
      'POST /api/v1/oauth/interactions/uid-1234567890/wallet-consent': {
        body: { redirect_to: 'https://attestly.test/oauth2/authorize/resume' },
      },
    });
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    await renderApp('/oauth/consent?uid=uid-1234567890');
    expect(await screen.findByText('Proof of age (ISO mdoc, EU age verification)')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Add to your wallet' })).toBeInTheDocument();
    expect(screen.getByTestId('wallet-claims')).toHaveTextContent('over 18, not over 21');
    expect(screen.getByTestId('wallet-claims')).toHaveTextContent('Valid until 2027-02-24');
    expect(screen.queryByRole('checkbox')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Add to wallet' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://attestly.test/oauth2/authorize/resume'));
    expect(calls.some((call) => call.method === 'POST' && call.url.endsWith('/wallet-consent'))).toBe(true);
  });

  it('tells a user the issuing policy refuses why, and offers only Cancel and verifying', async () => {
    fakeApi({
      'GET /api/v1/oauth/interactions/uid-1234567890': {
        body: walletInteraction({
          credentials: [{ id: 'proof_of_age', name: 'Proof of age (ISO mdoc, EU age verification)' }],
          age_over: null,
          valid_until: null,
          refused: 'Wallet credentials need an age proven with an identity document.',
        }),
      },
    });
    await renderApp('/oauth/consent?uid=uid-1234567890');
    expect(
      await screen.findByText('Wallet credentials need an age proven with an identity document.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to wallet' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify now' })).toBeInTheDocument();
  });
});
