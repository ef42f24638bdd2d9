import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../../auth/token-storage';
import { PROFILE, fakeApi, renderApp } from '../../test/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
});

const loginAnswer = {
  user: PROFILE,
  access_token: 'atu_new',
  token_type: 'Bearer',
  expires_at: '2030-01-01T00:00:00.000Z',
};
const dashboardApi = {
  'GET /api/v1/users/profile': { body: PROFILE },
  'GET /api/v1/users/sessions': { body: { sessions: [], total_count: 1 } },
};

describe('sign-in form (spec 01 §5)', () => {
  it('asks for the email and the password', async () => {
    fakeApi({});
    await renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('rejects a malformed email', async () => {
    fakeApi({});
    await renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'whatever1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid email')).toBeInTheDocument();
  });

  it('with remember me keeps the token in persistent storage and goes to /dashboard', async () => {
    const calls = fakeApi({ 'POST /api/v1/users/login': { body: loginAnswer }, ...dashboardApi });
    const { router } = await renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Email'), 'Ada@Example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByLabelText('Remember me'));
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(calls[0]?.body).toEqual({ email: 'ada@example.com', password: 'correct horse', rememberMe: true });
    expect(localStorage.getItem('userToken')).toBe('atu_new');
    expect(sessionStorage.getItem('userToken')).toBeNull();
    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
  });

  it('without remember me keeps the token for this tab only', async () => {
    fakeApi({ 'POST /api/v1/users/login': { body: loginAnswer }, ...dashboardApi });
    const { router } = await renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(sessionStorage.getItem('userToken')).toBe('atu_new');
    expect(localStorage.getItem('userToken')).toBeNull();
  });

  it("shows the server's message once when sign-in fails, and stays put", async () => {
    fakeApi({
      'POST /api/v1/users/login': {
        status: 401,
        body: { detail: 'Invalid email or password', code: 'auth.invalid_credentials' },
      },
    });
    const { router } = await renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('Invalid email or password')).toHaveLength(1);
    expect(
      screen.getAllByRole('alert').filter((alert) => alert.textContent === 'Invalid email or password'),
    ).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/login');
    expect(tokens.token('user')).toBeNull();
  });

  it('falls back to "Login failed" when the server gives no message', async () => {
    fakeApi({ 'POST /api/v1/users/login': { status: 502 } });
    await renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'whatever1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('HTTP error! status: 502')).not.toHaveLength(0);
  });

  it('links to sign-up and password reset', async () => {
    fakeApi({});
    await renderApp('/login');
    expect(await screen.findByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });
});
