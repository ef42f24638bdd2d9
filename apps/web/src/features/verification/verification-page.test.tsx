import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VERIFICATION_LIMITS } from '@attestly/contracts';
import { tokens } from '../../auth/token-storage';
import { PROFILE, fakeApi, renderApp } from '../../test/render-app';
import { documentFileProblem } from './document-form';
import { challengePrompt } from './capture-overlays';
import { resultWording } from './facial-result';
import { pickRecorderType } from './use-camera-capture';

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
  it('offers camera, document and location, and no card check where the server has no Stripe', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/users/verification-status': { body: EMPTY_STATUS },
    });
    await renderApp('/verification');
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      expect.stringMatching(/^Camera/),
      expect.stringMatching(/^Document/),
      expect.stringMatching(/^Location/),
    ]);
    expect(screen.queryByRole('tab', { name: /Credit card/ })).toBeNull();
    // The camera defaults to the 5-second video.
    expect(screen.getByRole('radio', { name: /5-second video/ })).toBeChecked();
  });

  it('asks for a document file first', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/users/verification-status': { body: EMPTY_STATUS },
    });
    await renderApp('/verification');
    await userEvent.click(await screen.findByRole('tab', { name: /Document/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Next: record a short video' }));
    expect(await screen.findByText('Please select a document to upload')).toBeInTheDocument();
    // With a file chosen, the same flow moves on to the video of the holder.
    const file = new File(['%PDF-1.4'], 'passport.pdf', { type: 'application/pdf' });
    await userEvent.upload(screen.getByLabelText('Document file'), file);
    await userEvent.click(screen.getByRole('button', { name: 'Next: record a short video' }));
    expect(await screen.findByText(/Record a 5-second video of your face/)).toBeInTheDocument();
    expect(screen.getByText(/2\. A 5-second video of you/)).toHaveAttribute('aria-current', 'step');
    expect(screen.queryByRole('radio', { name: /Photo/ })).toBeNull();
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

  it('shows the prompt of the challenge step whose window is running, in the order the server chose', () => {
    const challenge = {
      steps: [
        { action: 'blink' as const, prompt: 'Blink', start_seconds: 0.4, end_seconds: 1.9 },
        {
          action: 'turn_right' as const,
          prompt: 'Turn your head to the right',
          start_seconds: 1.9,
          end_seconds: 3.3,
        },
        {
          action: 'turn_left' as const,
          prompt: 'Turn your head to the left',
          start_seconds: 3.3,
          end_seconds: 4.8,
        },
      ],
    };
    expect(challengePrompt(challenge, 0.1)).toEqual({ prompt: 'Look at the camera', step: null });
    expect(challengePrompt(challenge, 0.5)).toEqual({ prompt: 'Blink', step: 1 });
    expect(challengePrompt(challenge, 2)).toEqual({ prompt: 'Turn your head to the right', step: 2 });
    expect(challengePrompt(challenge, 4.7)).toEqual({ prompt: 'Turn your head to the left', step: 3 });
    expect(challengePrompt(challenge, 4.9).step).toBeNull();
  });
});

describe('result wording', () => {
  it('never says rejected beside "liveness passed" without saying the age check is what failed', () => {
    const w = resultWording({ status: 'rejected', is_live: true, age_threshold: 18, media_type: 'video' });
    expect(w.title).toBe('Age not confirmed from your face (liveness passed)');
    expect(w.liveness).toMatch(/age estimate is a separate check: it did not clear the 18\+ cut-off/);
    expect(w.title).not.toMatch(/rejected/i);
    const notLive = resultWording({
      status: 'rejected',
      is_live: false,
      age_threshold: 18,
      media_type: 'video',
    });
    expect(notLive.title).toBe('Not verified: liveness not shown');
    expect(notLive.liveness).toMatch(/not passed/);
    expect(resultWording({ status: 'approved', is_live: true, age_threshold: 21 }).title).toBe(
      'Age verified: 21+',
    );
    expect(
      resultWording({ status: 'rejected', is_live: true, age_threshold: 18, media_type: 'image' }).liveness,
    ).toMatch(/A photo cannot show liveness/);
  });
});
