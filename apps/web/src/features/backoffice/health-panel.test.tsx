import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminSystemHealth } from '@attestly/contracts';
import { fakeApi, renderApp } from '../../test/render-app';
import { DASHBOARD_FAKES, HEALTH, signInAdmin } from './test-fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => signInAdmin());

/** An install without SMTP or Stripe, as the server reports it (admin/system/service.ts). */
const SUPPORTED_MODES: AdminSystemHealth = {
  ...HEALTH,
  overall_status: 'healthy',
  services: {
    mail: {
      status: 'healthy',
      error: null,
      note: 'No SMTP server: each mail is written to /var/lib/attestly/outbox as an .eml file',
      details: { transport: 'outbox', path: '/var/lib/attestly/outbox' },
    },
    stripe: {
      status: 'off',
      error: null,
      note: 'Billing is off (no Stripe keys): administrators assign plans in the back office or with the CLI',
    },
    vision: { status: 'not_configured', error: 'The vision engine is not loaded on this server' },
  },
  metrics: { ...HEALTH.metrics, healthy_services: 2, total_services: 3 },
};

describe('health panel (issue 25 item 10)', () => {
  it('shows mail to the outbox and billing off as modes, not failures, and counts every listed row', async () => {
    fakeApi({ ...DASHBOARD_FAKES, 'GET /api/v1/admin/system/health': { body: SUPPORTED_MODES } });
    await renderApp('/backoffice');
    const heading = await screen.findByRole('heading', { name: 'System health' });
    const panel = heading.closest('section')!;
    const note = await within(panel).findByText(/each mail is written to \/var\/lib\/attestly\/outbox/);
    expect(note).not.toHaveClass('text-red-800');
    expect(within(panel).getByText(/Billing is off/)).not.toHaveClass('text-red-800');
    expect(within(panel).getByText('off')).toBeInTheDocument();
    // Only the vision engine, which this server should have, reads as a problem.
    expect(panel.querySelectorAll('.text-red-800')).toHaveLength(1);
    const rows = within(panel).getAllByRole('listitem');
    const count = within(panel).getByText('Services working', { selector: 'dt' }).nextElementSibling;
    expect(count).toHaveTextContent(`2 / ${rows.length}`);
  });
});
