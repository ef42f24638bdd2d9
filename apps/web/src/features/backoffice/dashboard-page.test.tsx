import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../../auth/token-storage';
import { fakeApi, renderApp } from '../../test/render-app';
import { DASHBOARD_FAKES, signInAdmin } from './test-fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => signInAdmin());

const value = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

describe('dashboard (spec 02 §2 "Dashboard", §8)', () => {
  it('shows the 24-hour figures, a real success rate, health with its services and metrics, and alerts', async () => {
    fakeApi(DASHBOARD_FAKES);
    await renderApp('/backoffice');
    expect(await screen.findByText('Registrations (24h)')).toBeInTheDocument();
    expect(value('Total users')).toHaveTextContent('1,200');
    expect(value('Verifications (24h)')).toHaveTextContent('40');
    expect(value('Success rate (30 days)')).toHaveTextContent('91.2%');
    expect(await screen.findByText('SMTP connection refused')).toBeInTheDocument();
    expect(value('API calls (last hour)')).toHaveTextContent('321');
    expect(value('Active users (last hour)')).toHaveTextContent('9');
    expect(
      screen.getByText('3 verifications have waited for review for more than 24 hours'),
    ).toBeInTheDocument();
    expect(screen.getByText('WARNING')).toBeInTheDocument();
  });

  it('falls back to an unknown health and no alerts when those calls fail', async () => {
    fakeApi({
      ...DASHBOARD_FAKES,
      'GET /api/v1/admin/system/health': { status: 500, body: { detail: 'boom', code: 'internal' } },
      'GET /api/v1/admin/system/alerts': { status: 500, body: { detail: 'boom', code: 'internal' } },
    });
    await renderApp('/backoffice');
    expect(await screen.findByText('No alerts.')).toBeInTheDocument();
    expect((await screen.findAllByText('unknown')).length).toBeGreaterThan(0);
  });

  it('shows the error screen with Go to Login when the stats fail', async () => {
    fakeApi({
      ...DASHBOARD_FAKES,
      'GET /api/v1/admin/system/stats': { status: 503, body: undefined },
      'POST /api/v1/auth/admin/logout': { status: 204 },
    });
    const { router } = await renderApp('/backoffice');
    expect(await screen.findByText('Stats API failed: 503', {}, { timeout: 8000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go to Login' }));
    // The admin session is ended first, so the login page does not send the admin straight back.
    await waitFor(() => expect(router.state.location.pathname).toBe('/backoffice/login'));
    expect(tokens.token('admin')).toBeNull();
  });
});
