import type { LivenessChallenge } from '@attestly/contracts';

/**
 * What to show at a moment of the recording: the prompt of the challenge step whose window is running (issue 23:
 * the server chose the steps and their windows and checks the clip against them), with its place in the sequence.
 */
export function challengePrompt(
  challenge: Pick<LivenessChallenge, 'steps'>,
  elapsedSeconds: number,
): { prompt: string; step: number | null } {
  const index = challenge.steps.findIndex(
    (step) => elapsedSeconds >= step.start_seconds && elapsedSeconds < step.end_seconds,
  );
  if (index >= 0)
    return { prompt: (challenge.steps[index] as LivenessChallenge['steps'][number]).prompt, step: index + 1 };
  const first = challenge.steps[0];
  if (first && elapsedSeconds < first.start_seconds) return { prompt: 'Look at the camera', step: null };
  return { prompt: 'Look at the camera and hold still', step: null };
}

/** The prompt of the running challenge step over the preview, with the step's place and the seconds left. */
export function ChallengePrompt({ challenge, elapsed }: { challenge: LivenessChallenge; elapsed: number }) {
  const { prompt, step } = challengePrompt(challenge, elapsed);
  return (
    <div
      className="absolute inset-x-0 bottom-0 bg-black/60 p-3 text-center text-white"
      data-testid="challenge-prompt"
      data-step={step ?? ''}
    >
      <p className="text-lg font-semibold" aria-live="assertive">
        {prompt}
      </p>
      <p className="text-xs">
        {step ? `Step ${step} of ${challenge.steps.length} · ` : ''}
        {Math.max(0, challenge.recording_seconds - Math.floor(elapsed))} s
      </p>
    </div>
  );
}

/** Where to put the face: an oval over the preview, dimming the rest. */
export function FaceGuide() {
  return (
    <svg
      className="pointer-events-none absolute inset-0 size-full"
      viewBox="0 0 640 480"
      preserveAspectRatio="xMidYMid slice"
      role="img"
      aria-label="Face guide: put your face inside the oval"
    >
      <defs>
        <mask id="face-guide-mask">
          <rect width="640" height="480" fill="white" />
          <ellipse cx="320" cy="225" rx="125" ry="165" fill="black" />
        </mask>
      </defs>
      <rect width="640" height="480" fill="rgba(0,0,0,0.35)" mask="url(#face-guide-mask)" />
      <ellipse
        cx="320"
        cy="225"
        rx="125"
        ry="165"
        fill="none"
        stroke="white"
        strokeWidth="4"
        strokeDasharray="14 10"
      />
    </svg>
  );
}
