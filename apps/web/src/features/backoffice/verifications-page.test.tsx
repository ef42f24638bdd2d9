import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminVerification, AdminVerificationDetail } from '@attestly/contracts';
import { fakeApi, renderApp } from '../../test/render-app';
import { signInAdmin } from './test-fixtures';
import { reviewOrder } from './verifications-page';

afterEach(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => signInAdmin());

const base: AdminVerification = {
  id: '11111111-1111-4111-8111-111111111111',
  user_id: '22222222-2222-4222-8222-222222222222',
  user_email: 'holmes@example.com',
  verification_type: 'age',
  verification_method: 'document',
  status: 'pending',
  confidence_score: 0.42,
  needs_manual_review: true,
  age_threshold: 18,
  message: 'We could not read your document automatically',
  partner_id: null,
  site_id: null,
  submitted_at: '2026-11-25T10:00:00.000Z',
  reviewed_at: null,
  reviewed_by: null,
  has_media: true,
  can_retrigger: true,
  confidence_note: 'How well the machine-readable zone was read',
};
const approved: AdminVerification = {
  ...base,
  id: '33333333-3333-4333-8333-333333333333',
  status: 'approved',
  needs_manual_review: false,
  confidence_score: 0.8,
  verification_method: 'facial_recognition',
  can_retrigger: false,
  submitted_at: '2026-11-24T10:00:00.000Z',
};
const rejected: AdminVerification = {
  ...base,
  id: '44444444-4444-4444-8444-444444444444',
  status: 'rejected',
  needs_manual_review: false,
  confidence_score: null,
  confidence_note: null,
};
/** A camera check: nothing is kept, so nothing can be re-run. */
const cameraRejected: AdminVerification = {
  ...base,
  id: '66666666-6666-4666-8666-666666666666',
  verification_method: 'facial_recognition',
  status: 'rejected',
  needs_manual_review: false,
  confidence_score: 0.91,
  confidence_note: 'Confidence of the age estimate',
  can_retrigger: false,
  has_media: false,
};
/** A well-read passport whose portrait was not found: no figure, and the table says why. */
const portraitless: AdminVerification = {
  ...base,
  id: '77777777-7777-4777-8777-777777777777',
  confidence_score: null,
  confidence_note: 'Holder not confirmed: no figure until a person checks the portrait',
};
const detail: AdminVerificationDetail = {
  ...base,
  document_analysis: {
    document_type: 'passport',
    country_detected: null,
    format_valid: false,
    not_expired: false,
    authentic: null,
    date_of_birth: null,
    calculated_age: null,
    threshold_met: false,
    reasons: ['no machine-readable zone found'],
  },
  result_details: {},
  review_notes: [{ timestamp: '2026-11-25T10:00:01.000Z', note: 'Automatic reading unclear' }],
  media: [
    {
      id: '55555555-5555-4555-8555-555555555555',
      content_type: 'image/png',
      byte_length: 20480,
      purge_after: '2026-12-25T10:00:00.000Z',
      url: `/api/v1/admin/verifications/${base.id}/media/55555555-5555-4555-8555-555555555555`,
    },
  ],
};

const LIST_URL = '/api/v1/admin/verifications?skip=0&limit=50';

describe('review queue (spec 02 §2 "Verifications")', () => {
  it('puts cases waiting for a reviewer first', () => {
    const waitingLater = { ...base, id: 'later', submitted_at: '2026-11-25T12:00:00.000Z' };
    expect(reviewOrder([approved, waitingLater, rejected, base]).map((item) => item.id)).toEqual([
      base.id,
      'later',
      approved.id,
      rejected.id,
    ]);
  });

  it('lists, counts and offers only the actions the server can carry out', async () => {
    fakeApi({
      [`GET ${LIST_URL}`]: {
        body: {
          verifications: [approved, rejected, base, cameraRejected, portraitless],
          total_count: 120,
        },
      },
    });
    await renderApp('/backoffice/verifications');
    const rows = await screen.findAllByTestId('verification-row');
    expect(rows).toHaveLength(5);
    const row = (id: string) => rows.find((element) => element.textContent?.includes(id)) as HTMLElement;
    expect(within(row(base.id)).getByText('Review Required')).toBeInTheDocument();
    expect(within(row(base.id)).getByText('42.0%')).toBeInTheDocument();
    // Whole ids, each with a Copy button.
    expect(within(row(base.id)).getByText(base.id)).toBeInTheDocument();
    expect(within(row(base.id)).getByText(base.user_id)).toBeInTheDocument();
    expect(
      within(row(base.id)).getByRole('button', { name: `Copy verification ID ${base.id}` }),
    ).toBeInTheDocument();
    expect(within(row(base.id)).getByRole('button', { name: /^Approve/ })).toBeInTheDocument();
    // A pending document whose document is kept can be re-read.
    expect(within(row(base.id)).getByRole('button', { name: /^Retrigger/ })).toBeInTheDocument();
    expect(within(row(approved.id)).queryByRole('button', { name: /^Approve/ })).toBeNull();
    expect(within(row(approved.id)).queryByRole('button', { name: /^Retrigger/ })).toBeNull();
    expect(within(row(rejected.id)).getByText('N/A')).toBeInTheDocument();
    expect(within(row(rejected.id)).getByRole('button', { name: /^Retrigger/ })).toBeInTheDocument();
    // A camera rejection has nothing kept to re-run: no Retrigger.
    expect(within(row(cameraRejected.id)).queryByRole('button', { name: /^Retrigger/ })).toBeNull();
    expect(within(row(portraitless.id)).getByText('Holder not confirmed')).toBeInTheDocument();
    expect(within(row(portraitless.id)).queryByText(/%$/)).toBeNull();
    const counter = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(counter('Total')).toHaveTextContent('120');
    expect(counter('Pending Review')).toHaveTextContent('2');
    expect(counter('Verified')).toHaveTextContent('1');
    expect(counter('Failed')).toHaveTextContent('2');
    expect(screen.getByText('Showing 1 to 50 of 120 results')).toBeInTheDocument();
  });

  it('sends the filters as query parameters', async () => {
    const calls = fakeApi({
      [`GET ${LIST_URL}`]: { body: { verifications: [base], total_count: 1 } },
      'GET /api/v1/admin/verifications?skip=0&limit=50&status=pending': {
        body: { verifications: [base], total_count: 1 },
      },
      'GET /api/v1/admin/verifications?skip=0&limit=50&status=pending&needs_review=true': {
        body: { verifications: [base], total_count: 1 },
      },
    });
    await renderApp('/backoffice/verifications');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Status'), 'pending');
    await user.click(screen.getByLabelText('Needs Review'));
    await waitFor(() =>
      expect(calls.map((call) => call.url)).toContain(
        '/api/v1/admin/verifications?skip=0&limit=50&status=pending&needs_review=true',
      ),
    );
  });

  it('approves with the spec validation and reloads the list', async () => {
    let approvedNow = false;
    const calls = fakeApi({
      [`GET ${LIST_URL}`]: () => ({
        body: { verifications: [approvedNow ? { ...base, status: 'approved' } : base], total_count: 1 },
      }),
      [`POST /api/v1/admin/verifications/${base.id}/approve`]: () => {
        approvedNow = true;
        return { body: { ...detail, status: 'approved' } };
      },
      [`GET /api/v1/admin/verifications/${base.id}`]: { body: detail },
    });
    await renderApp('/backoffice/verifications');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `Approve verification ${base.id}` }));
    // The form opens in the details dialog, under the case and its media.
    const dialog = await screen.findByRole('dialog', { name: 'Verification details' });
    expect(await within(dialog).findByRole('heading', { name: 'Approve verification' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'View media' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText('Reviewer notes are required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reviewer notes'), 'Passport photo matches the selfie');
    await user.type(within(dialog).getByLabelText('Confidence override (optional)'), '1.5');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(
      await within(dialog).findByText('Confidence override must be a number from 0 to 1'),
    ).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Confidence override (optional)'));
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Verification approved successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      reviewer_notes: 'Passport photo matches the selfie',
    });
    await waitFor(() => expect(screen.queryByText('Review Required')).toBeNull());
  });

  it('rejects from the details dialog with one reason, and shows a failure there', async () => {
    const calls = fakeApi({
      [`GET ${LIST_URL}`]: { body: { verifications: [base], total_count: 1 } },
      [`GET /api/v1/admin/verifications/${base.id}`]: { body: detail },
      [`POST /api/v1/admin/verifications/${base.id}/reject`]: { status: 500, body: undefined },
    });
    await renderApp('/backoffice/verifications');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `Details of verification ${base.id}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Verification details' });
    await user.click(await within(dialog).findByRole('button', { name: 'Reject' }));
    await within(dialog).findByRole('heading', { name: 'Reject verification' });
    expect(within(dialog).queryByLabelText('Reviewer notes')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Rejection reason is required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Rejection reason'), 'Document unreadable');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Failed to reject verification')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      rejection_reason: 'Document unreadable',
    });
  });

  it('retriggers with force_reprocess', async () => {
    const calls = fakeApi({
      [`GET ${LIST_URL}`]: { body: { verifications: [rejected], total_count: 1 } },
      [`POST /api/v1/admin/verifications/${rejected.id}/retrigger`]: { body: rejected },
      [`GET /api/v1/admin/verifications/${rejected.id}`]: {
        body: { ...detail, ...rejected },
      },
    });
    await renderApp('/backoffice/verifications');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `Retrigger verification ${rejected.id}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Verification details' });
    await within(dialog).findByRole('heading', { name: 'Retrigger verification' });
    await user.click(within(dialog).getByLabelText('Force reprocess (bypass cache)'));
    await user.click(within(dialog).getByRole('button', { name: 'Retrigger' }));
    expect(await screen.findByText('Verification retriggered successfully')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      force_reprocess: true,
      notes: null,
    });
  });

  it('shows the details with document analysis, notes, and the media only when asked', async () => {
    const calls = fakeApi({
      [`GET ${LIST_URL}`]: { body: { verifications: [base], total_count: 1 } },
      [`GET /api/v1/admin/verifications/${base.id}`]: { body: detail },
      [`GET ${detail.media[0]?.url}`]: { body: { image: 'bytes' } },
    });
    const createObjectURL = vi.fn(() => 'blob:media-1');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    await renderApp('/backoffice/verifications');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `Details of verification ${base.id}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Verification details' });
    expect(await within(dialog).findByText('Document analysis')).toBeInTheDocument();
    expect(within(dialog).getByText('Automatic reading unclear')).toBeInTheDocument();
    expect(within(dialog).getByText('no machine-readable zone found')).toBeInTheDocument();
    expect(calls.some((call) => call.url.includes('/media/'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'View media' }));
    const image = await within(dialog).findByRole('img', { name: 'Submitted image 1' });
    expect(image).toHaveAttribute('src', 'blob:media-1');
    const mediaCall = calls.find((call) => call.url.includes('/media/'));
    expect(mediaCall?.headers.Authorization).toBe('Bearer ata_full_token');
    await user.click(within(dialog).getByRole('button', { name: 'Hide media' }));
    await waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:media-1'));
  });

  it('shows a load failure in the red box labelled Error:', async () => {
    fakeApi({
      [`GET ${LIST_URL}`]: {
        status: 422,
        body: { detail: 'limit must be at most 100', code: 'validation.failed' },
      },
    });
    await renderApp('/backoffice/verifications');
    expect(
      await screen.findByText(/Failed to load verifications: limit must be at most 100/),
    ).toBeInTheDocument();
    expect(screen.getByText('Error:')).toBeInTheDocument();
  });
});

describe('the method filter', () => {
  const methodOptions = async () => {
    const select = await screen.findByRole('combobox', { name: 'Method' });
    return [...select.querySelectorAll('option')].map((option) => option.textContent);
  };

  it('names no credit-card method where the server has no card checks', async () => {
    fakeApi({
      [`GET ${LIST_URL}`]: { body: { verifications: [], total_count: 0 } },
      'GET /api/v1/site-config': {
        body: { support_email: 'ops@example.com', capabilities: { card_check: null } },
      },
    });
    await renderApp('/backoffice/verifications');
    expect(await methodOptions()).toEqual(['All', 'Document', 'IP Geolocation', 'Facial Recognition']);
  });

  it('offers Credit Card where Stripe card checks are on', async () => {
    fakeApi({
      [`GET ${LIST_URL}`]: { body: { verifications: [], total_count: 0 } },
      'GET /api/v1/site-config': {
        body: {
          support_email: 'ops@example.com',
          capabilities: {
            card_check: { publishable_key: 'pk_test_1', stripe_js_url: 'https://js.stripe.com/v3/' },
          },
        },
      },
    });
    await renderApp('/backoffice/verifications');
    await waitFor(async () => expect(await methodOptions()).toContain('Credit Card'));
  });
});
