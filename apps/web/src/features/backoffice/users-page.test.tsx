import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '@attestly/contracts';
import { fakeApi, renderApp } from '../../test/render-app';
import { signInAdmin } from './test-fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => signInAdmin());

const ada: AdminUser = {
  id: '7b0c2a36-64c5-4e7f-9d8e-3c8a4f6f1d10',
  email: 'ada@example.com',
  username: null,
  full_name: 'Ada Lovelace',
  phone: null,
  country: 'GB',
  state: 'London',
  city: 'London',
  is_verified: true,
  age_verified: true,
  location_verified: true,
  identity_verified: true,
  is_active: true,
  is_flagged: false,
  flag: null,
  login_attempts: 0,
  locked_until: null,
  total_verifications: 4,
  oauth_authorizations: 2,
  last_login: null,
  created_at: '2026-10-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};
const bob: AdminUser = {
  ...ada,
  id: '8c1d3b47-75d6-4f80-8e9f-4d9b5a7a2e21',
  email: 'bob@example.com',
  full_name: 'Bob Babbage',
  country: null,
  state: null,
  age_verified: true,
  location_verified: false,
  identity_verified: false,
  is_flagged: true,
  locked_until: '2099-01-01T00:00:00.000Z',
};
const LIST = '/api/v1/admin/users?skip=0&limit=50';

describe('users management (spec 02 §2 "Users")', () => {
  it('shows the verification label, location, counts, last login and Flagged/Locked badges', async () => {
    fakeApi({ [`GET ${LIST}`]: { body: { users: [ada, bob], total_count: 2 } } });
    await renderApp('/backoffice/users');
    expect(await screen.findByRole('heading', { name: 'Users Management' })).toBeInTheDocument();
    const [first, second] = screen.getAllByTestId('user-row') as [HTMLElement, HTMLElement];
    expect(within(first).getByText('Fully Verified')).toBeInTheDocument();
    expect(within(first).getByText('Never')).toBeInTheDocument();
    expect(within(second).getByText('Partially Verified')).toBeInTheDocument();
    expect(within(second).getByText('Unknown')).toBeInTheDocument();
    expect(within(second).getByText('Flagged')).toBeInTheDocument();
    expect(within(second).getByText('Locked')).toBeInTheDocument();
    expect(within(second).getByRole('button', { name: 'Unflag bob@example.com' })).toBeInTheDocument();
    expect(within(second).getByRole('button', { name: 'Unlock bob@example.com' })).toBeInTheDocument();
    expect(screen.getByText('Showing 1 to 2 of 2 results')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Back to Dashboard' })).toHaveAttribute('href', '/backoffice');
  });

  it('filters by flag status and country', async () => {
    const calls = fakeApi({
      [`GET ${LIST}`]: { body: { users: [ada], total_count: 1 } },
      [`GET ${LIST}&flagged_only=true`]: { body: { users: [bob], total_count: 1 } },
      [`GET ${LIST}&flagged_only=true&country=GB`]: { body: { users: [bob], total_count: 1 } },
    });
    await renderApp('/backoffice/users');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Flag status'), 'flagged');
    await user.type(screen.getByLabelText('Country'), 'gb');
    await waitFor(() =>
      expect(calls.map((call) => call.url)).toContain(`${LIST}&flagged_only=true&country=GB`),
    );
    expect(calls.some((call) => call.url.includes('country=G&') || call.url.endsWith('country=G'))).toBe(
      false,
    );
  });

  it('flags with a required reason and unflags after the spec confirmation', async () => {
    const calls = fakeApi({
      [`GET ${LIST}`]: { body: { users: [ada, bob], total_count: 2 } },
      [`POST /api/v1/admin/users/${ada.id}/flag`]: { body: { ...ada, is_flagged: true } },
      [`POST /api/v1/admin/users/${bob.id}/unflag`]: { body: { ...bob, is_flagged: false } },
    });
    await renderApp('/backoffice/users');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Flag ada@example.com' }));
    const flag = await screen.findByRole('dialog', { name: 'Flag User' });
    expect(within(flag).getByLabelText('Priority')).toHaveValue('medium');
    await user.click(within(flag).getByRole('button', { name: 'Flag User' }));
    expect(await within(flag).findByText('Reason is required')).toBeInTheDocument();
    await user.type(within(flag).getByLabelText('Reason'), 'Shared account');
    await user.selectOptions(within(flag).getByLabelText('Priority'), 'high');
    await user.click(within(flag).getByRole('button', { name: 'Flag User' }));
    expect(await screen.findByText('User flagged successfully')).toBeInTheDocument();
    expect(calls.find((call) => call.url.endsWith('/flag'))?.body).toEqual({
      reason: 'Shared account',
      priority: 'high',
      reviewer_notes: null,
    });

    await user.click(screen.getByRole('button', { name: 'Unflag bob@example.com' }));
    const confirm = await screen.findByRole('dialog', { name: 'Unflag user' });
    expect(confirm).toHaveTextContent('Are you sure you want to unflag this user?');
    await user.click(within(confirm).getByRole('button', { name: 'Unflag' }));
    expect(await screen.findByText('User unflagged successfully')).toBeInTheDocument();
    expect(calls.find((call) => call.url.endsWith('/unflag'))?.body).toEqual({});
  });

  it('edits only the changed fields and deletes after confirmation', async () => {
    const calls = fakeApi({
      [`GET ${LIST}`]: { body: { users: [ada], total_count: 1 } },
      [`PUT /api/v1/admin/users/${ada.id}`]: { body: { ...ada, city: 'Bath' } },
      [`DELETE /api/v1/admin/users/${ada.id}`]: { status: 204 },
    });
    await renderApp('/backoffice/users');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit ada@example.com' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit user' });
    await user.clear(within(edit).getByLabelText('Email'));
    await user.type(within(edit).getByLabelText('Email'), 'not-an-email');
    await user.click(within(edit).getByRole('button', { name: 'Save changes' }));
    expect(await within(edit).findByText('Invalid email')).toBeInTheDocument();
    await user.clear(within(edit).getByLabelText('Email'));
    await user.type(within(edit).getByLabelText('Email'), 'ada@example.com');
    await user.clear(within(edit).getByLabelText('City'));
    await user.type(within(edit).getByLabelText('City'), 'Bath');
    await user.click(within(edit).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toMatchObject({ city: 'Bath' });
    expect(put?.body).not.toHaveProperty('full_name');

    await user.click(screen.getByRole('button', { name: 'Delete ada@example.com' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete user' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete ada@example.com?');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User deleted successfully')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });

  it('shows the details modal with history and authorizations', async () => {
    fakeApi({
      [`GET ${LIST}`]: { body: { users: [ada], total_count: 1 } },
      [`GET /api/v1/admin/users/${ada.id}`]: {
        body: {
          ...ada,
          oauth_authorizations: [
            {
              id: 'grant-1',
              partner_id: 'p1',
              partner_name: 'Acme Games',
              site_id: 's1',
              site_name: 'Acme Arcade',
              scopes: ['basic_info', 'AGE_18'],
              created_at: '2026-11-01T10:00:00.000Z',
              expires_at: '2027-11-01T10:00:00.000Z',
              last_used_at: null,
            },
          ],
          verification_history: [
            {
              id: 'v1',
              type: 'age',
              method: 'document',
              status: 'approved',
              created_at: '2026-11-01T10:00:00.000Z',
            },
          ],
        },
      },
    });
    await renderApp('/backoffice/users');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'View ada@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'User details' });
    expect(await within(dialog).findByText('Acme Arcade')).toBeInTheDocument();
    expect(within(dialog).getByText('AGE_18')).toBeInTheDocument();
    expect(within(dialog).getByRole('region', { name: 'Recent verification history' })).toHaveTextContent(
      'document',
    );
  });

  it('opens a user from anywhere on the row, but not from its own buttons, and keeps the actions in view', async () => {
    const calls = fakeApi({
      [`GET ${LIST}`]: { body: { users: [ada], total_count: 1 } },
      [`GET /api/v1/admin/users/${ada.id}`]: {
        body: { ...ada, oauth_authorizations: [], verification_history: [] },
      },
    });
    await renderApp('/backoffice/users');
    const user = userEvent.setup();
    const row = (await screen.findAllByTestId('user-row'))[0] as HTMLElement;
    // The actions column is pinned to the right edge on wide screens.
    const actions = within(row).getByRole('button', { name: 'View ada@example.com' }).closest('td');
    expect(actions?.className).toContain('lg:sticky');
    await user.click(within(row).getByRole('checkbox', { name: 'Select ada@example.com' }));
    expect(screen.queryByRole('dialog', { name: 'User details' })).toBeNull();
    await user.click(within(row).getByText('London'));
    const dialog = await screen.findByRole('dialog', { name: 'User details' });
    expect(await within(dialog).findByText('ada@example.com')).toBeInTheDocument();
    expect(calls.some((call) => call.url === `/api/v1/admin/users/${ada.id}`)).toBe(true);
  });

  it('adds a user: an invitation by default, or a first password shown once, then opens the user', async () => {
    const calls = fakeApi({
      [`GET ${LIST}`]: { body: { users: [], total_count: 0 } },
      'POST /api/v1/admin/users': {
        status: 201,
        body: {
          ...ada,
          oauth_authorizations: [],
          verification_history: [],
          temporary_password: 'first-Password-7',
        },
      },
      [`GET /api/v1/admin/users/${ada.id}`]: {
        body: { ...ada, oauth_authorizations: [], verification_history: [] },
      },
    });
    await renderApp('/backoffice/users');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    expect(within(dialog).getByLabelText(/Send an invitation mail/)).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(await within(dialog).findByText('Full name is required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(dialog).getByLabelText('Full name'), 'Ada Lovelace');
    await user.click(within(dialog).getByLabelText(/Show a one-time password/));
    await user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(await within(dialog).findByTestId('user-temporary-password')).toHaveTextContent(
      'first-Password-7',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('dialog', { name: 'User details' })).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      email: 'ada@example.com',
      full_name: 'Ada Lovelace',
      sign_in: 'show_password',
    });
  });
});
