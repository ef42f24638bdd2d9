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
