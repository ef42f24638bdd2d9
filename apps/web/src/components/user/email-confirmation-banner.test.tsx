import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../../auth/token-storage';
import { PROFILE, fakeApi, renderApp } from '../../test/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
});

const dashboardApi = (
  profile: Omit<typeof PROFILE, 'email_verified_at'> & { email_verified_at: string | null },
) => ({
  'GET /api/v1/users/profile': { body: profile },
  'GET /api/v1/users/sessions': { body: { sessions: [], total_count: 0 } },
  'GET /api/v1/users/tokens': { body: { tokens: [], total_count: 0 } },
  'POST /api/v1/users/send-email-verification': { body: { message: 'Verification email sent' } },
});

describe('the dashboard until the e-mail address is confirmed', () => {
  it('says where the link went and sends a new one on request', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    const calls = fakeApi(dashboardApi({ ...PROFILE, email_verified_at: null }));
    await renderApp('/dashboard');
    expect(await screen.findByText('Confirm your e-mail address')).toBeInTheDocument();
    expect(screen.getByText(PROFILE.email, { selector: 'strong' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Resend the link' }));
    expect(await screen.findByText(`Verification email sent to ${PROFILE.email}`)).toBeInTheDocument();
    expect(calls.filter((call) => call.url.endsWith('/users/send-email-verification'))).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Send again' })).toBeInTheDocument();
  });

  it('disappears once the address is confirmed', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi(dashboardApi({ ...PROFILE, email_verified_at: '2026-11-02T10:00:00.000Z' }));
    await renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByText('Confirm your e-mail address')).toBeNull();
  });
});
