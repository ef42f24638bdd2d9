import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../../auth/token-storage';
import { PROFILE, fakeApi, renderApp } from '../../test/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
});

const NATIONS = ['England', 'Northern Ireland', 'Scotland', 'Wales'];

describe('profile settings (spec 01 §2)', () => {
  it('enables Save only once something changed, and saves the whole profile', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    const calls = fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'PUT /api/v1/users/profile': ({ body }) => ({ body: { ...PROFILE, ...(body as object) } }),
      'GET /api/v1/locations/countries/GB/subdivisions': { body: { country: 'GB', subdivisions: NATIONS } },
    });
    await renderApp('/profile');
    const save = await screen.findByRole('button', { name: 'Save changes' });
    expect(save).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('United Kingdom');
    await userEvent.clear(screen.getByLabelText('City'));
    await userEvent.type(screen.getByLabelText('City'), 'Manchester');
    expect(save).toBeEnabled();
    await userEvent.click(save);
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      full_name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: null,
      country: 'GB',
      state: null,
      city: 'Manchester',
    });
    await waitFor(() => expect(save).toBeDisabled());
  });

  it('searches every country as you type, then offers that country’s states from the location data', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    const calls = fakeApi({
      'GET /api/v1/users/profile': { body: { ...PROFILE, state: 'England' } },
      'GET /api/v1/locations/countries/GB/subdivisions': { body: { country: 'GB', subdivisions: NATIONS } },
      'GET /api/v1/locations/countries/NG/subdivisions': {
        body: { country: 'NG', subdivisions: ['Abuja Federal Capital Territory', 'Lagos', 'Rivers State'] },
      },
      'PUT /api/v1/users/profile': ({ body }) => ({ body: { ...PROFILE, ...(body as object) } }),
    });
    await renderApp('/profile');
    const country = await screen.findByRole('combobox', { name: 'Country' });
    await userEvent.click(country);
    // The whole ISO 3166-1 list, not the reference's six.
    expect(screen.getAllByRole('option').length).toBe(250);
    await userEvent.clear(country);
    await userEvent.type(country, 'niger');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Niger', 'Nigeria']);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(country).toHaveValue('Nigeria');
    // A new country clears the old state; its states come from the server.
    const state = await screen.findByRole('combobox', { name: 'State / region' });
    expect(state).toHaveValue('');
    await userEvent.type(state, 'riv');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Rivers State']);
    await userEvent.click(screen.getByRole('option', { name: 'Rivers State' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Profile updated successfully!');
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      country: 'NG',
      state: 'Rivers State',
    });
  });

  it('finds a country without its accents and keeps the chosen one when the search is abandoned', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/locations/countries/GB/subdivisions': { body: { country: 'GB', subdivisions: NATIONS } },
    });
    await renderApp('/profile');
    const country = await screen.findByRole('combobox', { name: 'Country' });
    await userEvent.clear(country);
    await userEvent.type(country, 'cote d');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Côte d’Ivoire']);
    await userEvent.keyboard('{Escape}');
    expect(country).toHaveValue('United Kingdom');
    await userEvent.type(country, 'zzzz');
    expect(screen.getByText('No match')).toBeInTheDocument();
    await userEvent.tab();
    expect(country).toHaveValue('United Kingdom');
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it('shows Verified or Not verified for each verification flag, the one word used on every page', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({
      'GET /api/v1/users/profile': { body: { ...PROFILE, email_verified_at: '2026-11-02T10:00:00.000Z' } },
    });
    await renderApp('/profile');
    const section = (await screen.findByRole('heading', { name: 'Verification' })).closest(
      'section',
    ) as HTMLElement;
    const rows = [...section.querySelectorAll('li')].map((row) => row.textContent);
    expect(rows).toEqual([
      'EmailVerified',
      'PhoneNot verified',
      'AgeVerified',
      'LocationNot verified',
      'IdentityNot verified',
    ]);
  });

  it('refuses a photo over 1MB before uploading it', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    const calls = fakeApi({ 'GET /api/v1/users/profile': { body: PROFILE } });
    await renderApp('/profile');
    const big = new File([new Uint8Array(1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await userEvent.upload(await screen.findByLabelText('Profile photo'), big);
    expect(await screen.findByText('Profile photo must be 1MB or smaller')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload photo' })).not.toBeInTheDocument();
    expect(calls.some((call) => call.url.endsWith('/photo'))).toBe(false);
  });

  it('shows the server message when saving fails', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'PUT /api/v1/users/profile': {
        status: 409,
        body: {
          detail: 'That email address is already in use',
          code: 'users.email_taken',
          errors: [{ path: 'email', message: 'That email address is already in use' }],
        },
      },
    });
    await renderApp('/profile');
    const email = await screen.findByLabelText('Email');
    await userEvent.clear(email);
    await userEvent.type(email, 'taken@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findAllByText('That email address is already in use')).toHaveLength(2);
  });
});

describe('changing the e-mail address on /profile', () => {
  it('keeps the current address and says where the confirmation link went', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'PUT /api/v1/users/profile': { body: { ...PROFILE, pending_email: 'new@example.com' } },
    });
    await renderApp('/profile');
    const email = await screen.findByLabelText('Email');
    await userEvent.clear(email);
    await userEvent.type(email, 'new@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(
      await screen.findByText(
        'We sent a confirmation link to new@example.com. Your address changes when you open it.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue(PROFILE.email));
  });
});
