import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VERIFICATION_LIMITS } from '@attestly/contracts';
import { tokens } from '../../auth/token-storage';
import { PROFILE, fakeApi, renderApp } from '../../test/render-app';
import { documentFileProblem } from './document-form';
import { challengePrompt, pickRecorderType } from './facial-capture';

const EMPTY_STATUS = {
  overall: 'partially_verified',
  age_verified: true,
  proven_min_age: 18,
  verifications: [],
  pending_reviews: 0,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('verification screen (spec 01 §2, §5)', () => {
  it('shows every card-form message and sends a valid card, then says the check was initiated', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    const calls = fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/users/verification-status': { body: EMPTY_STATUS },
      'POST /api/v1/users/verify/credit-card': {
        status: 201,
        body: {
          status: 'pending',
          message: 'Card details checked (format only).',
          verification_id: 'v1',
          verification: {},
        },
      },
    });
    await renderApp('/verification');
    await userEvent.click(await screen.findByRole('tab', { name: /Credit card/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Verify card' }));
    for (const message of [
      'Card number is required',
      'Cardholder name is required',
      'Expiry month is required',
      'Expiry year is required',
      'CVV is required',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    const year = String(new Date().getFullYear() + 3);
    const months = screen.getByLabelText('Expiry month') as HTMLSelectElement;
    expect([...months.options].map((option) => option.value).slice(1)).toEqual([
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
      '12',
    ]);
    const years = screen.getByLabelText('Expiry year') as HTMLSelectElement;
    expect(years.options).toHaveLength(12);
    expect(screen.getByLabelText('CVV')).toHaveAttribute('maxLength', '4');

    await userEvent.type(screen.getByLabelText('Card number'), '4242 4242 4242 4242');
    await userEvent.type(screen.getByLabelText('Cardholder name'), 'Ada Lovelace');
    await userEvent.selectOptions(months, '07');
    await userEvent.selectOptions(years, year);
    await userEvent.type(screen.getByLabelText('CVV'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Verify card' }));
    expect(await screen.findByText('Credit card verification initiated!')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        card_number: '4242424242424242',
        cardholder_name: 'Ada Lovelace',
        expiry_month: '07',
        expiry_year: year,
        cvv: '123',
      }),
    );
  });

  it('rejects a card number that fails the checksum before sending it', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    const calls = fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/users/verification-status': { body: EMPTY_STATUS },
    });
    await renderApp('/verification');
    await userEvent.click(await screen.findByRole('tab', { name: /Credit card/ }));
    await userEvent.type(screen.getByLabelText('Card number'), '4242 4242 4242 4241');
    await userEvent.click(screen.getByRole('button', { name: 'Verify card' }));
    expect(await screen.findByText('Invalid card number')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('asks for a document file first', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/users/verification-status': { body: EMPTY_STATUS },
    });
    await renderApp('/verification');
    await userEvent.click(await screen.findByRole('tab', { name: /Document/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Upload document' }));
    expect(await screen.findByText('Please select a document to upload')).toBeInTheDocument();
  });
});

describe('document file checks', () => {
  it('refuses files of 10MB or more and types other than images and PDF', () => {
    const big = new File([new Uint8Array(VERIFICATION_LIMITS.documentBytes)], 'scan.pdf', {
      type: 'application/pdf',
    });
    expect(documentFileProblem(big)).toBe('File size must be less than 10MB');
    expect(documentFileProblem(new File(['x'], 'notes.txt', { type: 'text/plain' }))).toBe(
      VERIFICATION_LIMITS.documentTypeMessage,
    );
    expect(documentFileProblem(new File(['x'], 'scan.pdf', { type: 'application/pdf' }))).toBeNull();
    expect(documentFileProblem(null)).toBe('Please select a document to upload');
  });
});

describe('camera capture settings (spec 01 §9)', () => {
  it('prefers VP8 WebM, then WebM, then MP4', () => {
    expect(pickRecorderType(() => true)).toBe('video/webm;codecs=vp8');
    expect(pickRecorderType((type) => type === 'video/webm' || type === 'video/mp4')).toBe('video/webm');
    expect(pickRecorderType((type) => type === 'video/mp4')).toBe('video/mp4');
    expect(pickRecorderType(() => false)).toBeNull();
  });

  it('asks for a head turn first and a blink in the second half', () => {
    expect(challengePrompt(0.5)).toMatch(/Turn your head/);
    expect(challengePrompt(3.5)).toMatch(/blink/);
  });
});
