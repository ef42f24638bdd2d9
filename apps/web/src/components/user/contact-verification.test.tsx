import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../../auth/token-storage';
import { PROFILE, fakeApi, renderApp } from '../../test/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function sendCode(delivery: 'sms' | 'log') {
  tokens.set('user', 'atu_valid', { remember: false });
  fakeApi({
    'GET /api/v1/users/profile': { body: { ...PROFILE, phone: '+44 7700 900123' } },
    'GET /api/v1/users/sessions': { body: { sessions: [], total_count: 0 } },
    'POST /api/v1/users/send-phone-verification': {
      status: 202,
      body: { message: 'Verification code sent', delivery },
    },
  });
  await renderApp('/security');
  await userEvent.click(await screen.findByRole('button', { name: 'Send code' }));
  await screen.findByLabelText('6-digit code');
}

describe('phone verification on /security', () => {
  it('says plainly when no SMS gateway is configured and the operator holds the code', async () => {
    await sendCode('log');
    expect(screen.getByRole('note')).toHaveTextContent(
      /no SMS gateway configured, so no text message was sent/,
    );
  });

  it('says nothing of the kind when the code went out by SMS', async () => {
    await sendCode('sms');
    expect(screen.queryByRole('note')).toBeNull();
  });
});
