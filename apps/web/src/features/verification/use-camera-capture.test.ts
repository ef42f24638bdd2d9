import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LivenessChallenge } from '@attestly/contracts';
import { verificationApi } from '../../api/verification';
import { challengePrompt } from './capture-overlays';
import { useCameraCapture } from './use-camera-capture';

const CHALLENGE: LivenessChallenge = {
  id: '5d0e8a47-64a4-4f44-9d59-0b1d0c6a2f10',
  steps: [
    { action: 'blink', prompt: 'Blink', start_seconds: 0.5, end_seconds: 2.5 },
    { action: 'turn_right', prompt: 'Turn your head to the right', start_seconds: 2.5, end_seconds: 4.6 },
  ],
  recording_seconds: 5,
  tolerance_seconds: 0.5,
  expires_at: '2026-11-29T10:00:00.000Z',
};

/** A MediaRecorder that records nothing but says when it is stopped, and what the screen showed at that moment. */
class FakeRecorder {
  static isTypeSupported = () => true;
  static stoppedShowing: string[] = [];
  static screen: () => string = () => '';
  state: 'inactive' | 'recording' = 'inactive';
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: (() => void) | null = null;
  start() {
    this.state = 'recording';
  }
  stop() {
    FakeRecorder.stoppedShowing.push(FakeRecorder.screen());
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob(['video']) });
    this.onstop?.();
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2026-11-29T09:00:00Z'));
  FakeRecorder.stoppedShowing = [];
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  vi.stubGlobal('navigator', {
    ...navigator,
    mediaDevices: { getUserMedia: async () => ({ getTracks: () => [] }) },
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(verificationApi, 'challenge').mockResolvedValue(CHALLENGE);
  URL.createObjectURL = () => 'blob:recording';
  URL.revokeObjectURL = () => undefined;
});
// jsdom has no object URLs: the stand-ins above are put back as they were, for the other files of this worker.
const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A camera on, then a recording through its 3-second countdown, with the prompt the screen shows read as it renders. */
async function recording() {
  const hook = renderHook(() => useCameraCapture());
  hook.result.current.videoRef.current = document.createElement('video');
  FakeRecorder.screen = () => challengePrompt(CHALLENGE, hook.result.current.elapsed).prompt;
  await act(() => hook.result.current.startCamera());
  await act(() => hook.result.current.record());
  await act(async () => vi.advanceTimersByTime(3000));
  expect(hook.result.current.phase).toBe('recording');
  return hook;
}

describe('the camera recording (issue 23: the screen drives the challenge)', () => {
  it('stops after five seconds, with "hold still" on the screen', async () => {
    const hook = await recording();
    for (let i = 0; i < 49; i++) await act(async () => vi.advanceTimersByTime(100));
    expect(FakeRecorder.stoppedShowing).toEqual([]);
    await act(async () => vi.advanceTimersByTime(200));
    expect(FakeRecorder.stoppedShowing).toEqual(['Look at the camera and hold still']);
    expect(hook.result.current.phase).toBe('captured');
  });

  it('shows "hold still" before it stops even when a busy device runs the clock late past the end', async () => {
    const hook = await recording();
    // Ticks on time up to 4.3 s, inside the last step's window.
    for (let i = 0; i < 43; i++) await act(async () => vi.advanceTimersByTime(100));
    expect(challengePrompt(CHALLENGE, hook.result.current.elapsed).prompt).toBe(
      'Turn your head to the right',
    );
    // Then the next tick comes 0.8 s late: it lands after the end of the recording.
    vi.setSystemTime(Date.now() + 800);
    await act(async () => vi.advanceTimersByTime(100));
    await act(async () => vi.advanceTimersByTime(100));
    expect(FakeRecorder.stoppedShowing).toEqual(['Look at the camera and hold still']);
    expect(hook.result.current.phase).toBe('captured');
  });
});
