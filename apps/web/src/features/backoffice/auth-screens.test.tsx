import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../../auth/token-storage';
import { fakeApi, renderApp } from '../../test/render-app';
import { ADMIN, DASHBOARD_FAKES, TOKEN_ANSWER, signInAdmin } from './test-fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
});

const path = (router: { state: { location: { pathname: string } } }) => router.state.location.pathname;

describe('back-office guard (spec 02 §2 "Guarding")', () => {
  it('sends a visitor without a token to /backoffice/login', async () => {
    fakeApi({});
    const { router } = await renderApp('/backoffice/users');
    await waitFor(() => expect(path(router)).toBe('/backoffice/login'));
    expect(await screen.findByRole('heading', { name: 'Back office sign in' })).toBeInTheDocument();
  });

  it('sends a visitor holding only a setup token to /backoffice/setup-2fa', async () => {
    tokens.set('admin_setup', 'ats_setup', { remember: false, expiresAt: '2099-01-01T00:00:00.000Z' });
    fakeApi({});
    const { router } = await renderApp('/backoffice');
    await waitFor(() => expect(path(router)).toBe('/backoffice/setup-2fa'));
  });

  it('removes an expired or malformed admin token and goes to the login page', async () => {
    fakeApi({});
    tokens.set('admin', 'ata_old', { remember: false, expiresAt: '2000-01-01T00:00:00.000Z' });
    const first = await renderApp('/backoffice');
    await waitFor(() => expect(path(first.router)).toBe('/backoffice/login'));
    expect(tokens.token('admin')).toBeNull();
    first.unmount();
    tokens.set('admin', 'atu_not_an_admin_token', { remember: false });
    const second = await renderApp('/backoffice');
    await waitFor(() => expect(path(second.router)).toBe('/backoffice/login'));
    expect(tokens.token('admin')).toBeNull();
  });

  it('without a setup token, the setup page goes to the login page; with an admin token, login goes to /backoffice', async () => {
    fakeApi(DASHBOARD_FAKES);
    const first = await renderApp('/backoffice/setup-2fa');
    await waitFor(() => expect(path(first.router)).toBe('/backoffice/login'));
    first.unmount();
    signInAdmin();
    const second = await renderApp('/backoffice/login');
    await waitFor(() => expect(path(second.router)).toBe('/backoffice'));
  });

  it('shows the sidebar, the e-mail with "2FA Enabled", and signs out', async () => {
    signInAdmin();
    const calls = fakeApi({ ...DASHBOARD_FAKES, 'POST /api/v1/auth/admin/logout': { status: 204 } });
    const { router } = await renderApp('/backoffice');
    const nav = await screen.findByRole('navigation', { name: 'Back office' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard', 'Partners', 'Users', 'Verifications', 'Tokens & OAuth', 'Audit Logs']);
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getAllByText(ADMIN.email).length).toBeGreaterThan(0);
    expect(screen.getAllByText('2FA Enabled').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(path(router)).toBe('/backoffice/login'));
    expect(tokens.token('admin')).toBeNull();
    expect(calls.find((call) => call.url === '/api/v1/auth/admin/logout')?.headers.Authorization).toBe(
      `Bearer ${TOKEN_ANSWER.access_token}`,
    );
  });

  it('clears the admin tokens and goes to the login page on a 401 from an admin call', async () => {
    signInAdmin();
    fakeApi({
      ...DASHBOARD_FAKES,
      'GET /api/v1/admin/system/stats': {
        status: 401,
        body: { detail: 'Session expired', code: 'auth.invalid_token' },
      },
    });
    const { router } = await renderApp('/backoffice');
    await waitFor(() => expect(path(router)).toBe('/backoffice/login'));
    expect(tokens.token('admin')).toBeNull();
  });
});

describe('admin login (spec 02 §2, §4, §5)', () => {
  it('validates with the spec messages, then asks for the code and stores the admin token', async () => {
    const calls = fakeApi({
      ...DASHBOARD_FAKES,
      'POST /api/v1/auth/admin/login': {
        body: {
          access_token: null,
          token_type: 'Bearer',
          requires_2fa: true,
          requires_2fa_setup: false,
          temp_token: 'temp_123',
          user_id: ADMIN.id,
          expires_at: '2099-01-01T00:00:00.000Z',
        },
      },
      'POST /api/v1/auth/admin/verify-2fa': (call) =>
        (call.body as { code: string }).code === '123456'
          ? { body: TOKEN_ANSWER }
          : (call.body as { code: string }).code === '999999'
            ? { status: 502, body: undefined }
            : { status: 401, body: { detail: 'Invalid verification code', code: 'auth.invalid_code' } },
    });
    const { router } = await renderApp('/backoffice/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), ADMIN.email);
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const code = await screen.findByLabelText('2FA code');
    expect(code).toHaveAttribute('maxLength', '6');
    expect(code).toHaveAttribute('inputMode', 'numeric');

    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('2FA code is required')).toBeInTheDocument();
    await user.type(code, '12a');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('2FA code must be 6 digits')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('2FA code'));
    await user.type(screen.getByLabelText('2FA code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findAllByText('Invalid verification code')).not.toHaveLength(0);
    expect(path(router)).toBe('/backoffice/login');
    // A failure the server did not explain reads as spec 02 §8 words it.
    await user.type(screen.getByLabelText('2FA code'), '999999');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findAllByText('Failed to verify')).not.toHaveLength(0);

    await user.type(screen.getByLabelText('2FA code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(path(router)).toBe('/backoffice'));
    expect(tokens.token('admin')).toBe(TOKEN_ANSWER.access_token);
    expect(calls.filter((call) => call.url.endsWith('/verify-2fa')).map((call) => call.body)).toEqual([
      { temp_token: 'temp_123', code: '000000' },
      { temp_token: 'temp_123', code: '999999' },
      { temp_token: 'temp_123', code: '123456' },
    ]);
    expect(await screen.findByText('Registrations (24h)')).toBeInTheDocument();
  });

  it('shows the server detail when the credentials are refused', async () => {
    fakeApi({
      'POST /api/v1/auth/admin/login': {
        status: 401,
        body: { detail: 'Invalid email or password', code: 'auth.invalid_credentials' },
      },
    });
    await renderApp('/backoffice/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), ADMIN.email);
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findAllByText('Invalid email or password')).length).toBeGreaterThan(0);
  });
});

describe('2FA setup (spec 02 §2 "Setup-2fa screen")', () => {
  it('goes from the first sign-in through password, secret and code to the back office', async () => {
    const calls = fakeApi({
      ...DASHBOARD_FAKES,
      'POST /api/v1/auth/admin/login': {
        body: {
          access_token: 'ats_setup_token',
          token_type: 'Bearer',
          requires_2fa: false,
          requires_2fa_setup: true,
          temp_token: null,
          user_id: ADMIN.id,
          expires_at: '2099-01-01T00:00:00.000Z',
        },
      },
      'POST /api/v1/auth/admin/setup-2fa': {
        body: {
          qr_code_data_uri: 'data:image/png;base64,iVBORw0KGgo=',
          otpauth_url: 'otpauth://totp/Attestly:root?secret=JBSWY3DPEHPK3PXP&issuer=Attestly',
          secret: 'JBSWY3DPEHPK3PXP',
          backup_codes: Array.from({ length: 10 }, (_, index) => `abcd${index}-efgh${index}`),
        },
      },
      'POST /api/v1/auth/admin/enable-2fa': { body: TOKEN_ANSWER },
    });
    const { router } = await renderApp('/backoffice/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), ADMIN.email);
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(path(router)).toBe('/backoffice/setup-2fa'));
    expect(tokens.token('admin_setup')).toBe('ats_setup_token');

    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please enter your current password')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Current password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(screen.getByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute(
      'src',
      'data:image/png;base64,iVBORw0KGgo=',
    );
    expect(within(screen.getByRole('list', { name: 'Backup codes' })).getAllByRole('listitem')).toHaveLength(
      10,
    );
    expect(calls.find((call) => call.url.endsWith('/setup-2fa'))?.headers.Authorization).toBe(
      'Bearer ats_setup_token',
    );

    const enable = screen.getByRole('button', { name: 'Enable two-factor authentication' });
    await user.click(enable);
    expect(await screen.findByText('Please enter a verification code')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Verification code'), '654321');
    await user.click(enable);
    expect(await screen.findByText(/Two-factor authentication is enabled/)).toBeInTheDocument();
    expect(tokens.token('admin_setup')).toBeNull();
    expect(tokens.token('admin')).toBe(TOKEN_ANSWER.access_token);
    // After 2 seconds: the login page, which sends the now signed-in admin on to /backoffice.
    await waitFor(() => expect(path(router)).toBe('/backoffice'), { timeout: 4000 });
  });
});
