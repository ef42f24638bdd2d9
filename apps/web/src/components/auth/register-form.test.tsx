import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderApp } from '../../test/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function fill(
  values: Partial<
    Record<'Full name' | 'Email' | 'Phone (optional)' | 'Password' | 'Confirm password', string>
  >,
) {
  for (const [label, value] of Object.entries(values))
    await userEvent.type(await screen.findByLabelText(label), value);
}

describe('sign-up form (spec 01 §5)', () => {
  it('lists every missing field with the specified messages', async () => {
    fakeApi({});
    await renderApp('/register');
    await userEvent.click(await screen.findByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Full name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();
    expect(screen.getByText('You must accept the terms and privacy policy')).toBeInTheDocument();
  });

  it('wants at least 8 characters and matching passwords', async () => {
    fakeApi({});
    await renderApp('/register');
    await fill({
      'Full name': 'Ada Lovelace',
      Email: 'ada@example.com',
      Password: 'short',
      'Confirm password': 'shorter',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'long enough');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
  });

  it('links the terms and privacy pages', async () => {
    fakeApi({});
    await renderApp('/register');
    expect(await screen.findByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
  });

  it('sends the account without confirmPassword or terms, then goes to a prefilled /login that says where the link went', async () => {
    const calls = fakeApi({
      'POST /api/v1/users/register': {
        status: 201,
        body: { message: 'Account created successfully! Please sign in.' },
      },
    });
    const { router } = await renderApp('/register');
    await fill({
      'Full name': 'Ada Lovelace',
      Email: 'ada@example.com',
      'Phone (optional)': '+44 20 7946 0958',
      Password: 'analytical engine',
      'Confirm password': 'analytical engine',
    });
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls[0]?.body).toEqual({
      full_name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'analytical engine',
      phone: '+44 20 7946 0958',
    });
    expect(await screen.findByText('Account created successfully! Please sign in.')).toBeInTheDocument();
    expect(router.state.location.search).toMatchObject({ email: 'ada@example.com', registered: true });
    expect(await screen.findByLabelText('Email')).toHaveValue('ada@example.com');
    expect(await screen.findByText(/We sent a verification link to/)).toHaveTextContent(
      'We sent a verification link to ada@example.com.',
    );
  });

  it("shows the server's field errors beside the fields and the detail in a toast", async () => {
    fakeApi({
      'POST /api/v1/users/register': {
        status: 422,
        body: {
          detail: 'Invalid phone number',
          code: 'validation.failed',
          errors: [{ path: 'phone', message: 'Invalid phone number' }],
        },
      },
    });
    const { router } = await renderApp('/register');
    await fill({
      'Full name': 'Ada',
      Email: 'ada@example.com',
      Password: 'analytical engine',
      'Confirm password': 'analytical engine',
    });
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findAllByText('Invalid phone number')).toHaveLength(2);
    expect(screen.getByLabelText('Phone (optional)')).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.pathname).toBe('/register');
  });
});
