import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../../auth/token-storage';
import { PROFILE, fakeApi, renderApp } from '../../test/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
});

// The router scrolls to #country after navigating; jsdom has no layout and no scrollIntoView.
Element.prototype.scrollIntoView ??= () => undefined;

describe('the location check without a country on the profile', () => {
  it('says so beside the button, with a link straight to the country field', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({
      'GET /api/v1/users/profile': { body: { ...PROFILE, country: null } },
      'GET /api/v1/users/verification-status': {
        body: {
          overall: 'not_verified',
          age_verified: false,
          proven_min_age: null,
          verifications: [],
          pending_reviews: 0,
        },
      },
      'POST /api/v1/users/verify/location': {
        status: 422,
        body: {
          detail: 'Please add your country to your profile before verifying your location.',
          code: 'verification.no_declared_country',
        },
      },
    });
    const { router } = await renderApp('/verification');
    await userEvent.click(await screen.findByRole('tab', { name: /Location/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Verify my location' }));
    const link = await screen.findByRole('link', { name: 'Add your country to your profile' });
    expect(link).toHaveAttribute('href', '/profile#country');
    await userEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(router.state.location.hash).toBe('country');
  });
});
