import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { AgeVerificationResult, LivenessChallenge } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { verificationApi } from '../../api/verification';
import { Button } from '../../components/ui/button';
import { rejectionReason } from './facial-result';
import { ResultPanel, facialResultHeadline } from './result-panel';
import { VideoUpload } from './video-upload';

/** spec 01 §9: ideal 640×480, JPEG 0.8; video 5 s after a 3-s countdown, 1 Mbps in 1-s chunks, VP8 WebM first. */
export const CAPTURE = {
  width: 640,
  height: 480,
  jpegQuality: 0.8,
  countdownSeconds: 3,
  videoSeconds: 5,
  videoBitsPerSecond: 1_000_000,
  chunkMs: 1000,
  recorderTypes: ['video/webm;codecs=vp8', 'video/webm', 'video/mp4'],
} as const;

/** The first recorder format this browser supports, in the spec's order of preference. */
export function pickRecorderType(isSupported: (type: string) => boolean): string | null {
  return CAPTURE.recorderTypes.find((type) => isSupported(type)) ?? null;
}

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

type Mode = 'photo' | 'video';
type Phase = 'idle' | 'capturing' | 'countdown' | 'recording' | 'captured' | 'verifying' | 'result';

/**
 * The title and the liveness line of a result, so that a rejection never sits beside "liveness passed" without
 * saying which check failed: liveness and the age estimate are separate checks.
 */
export function resultWording(
  result: Pick<AgeVerificationResult, 'status' | 'is_live' | 'age_threshold'> & {
    media_type?: 'image' | 'video';
  },
): { title: string; liveness: string } {
  const video = result.media_type !== 'image';
  const liveness = !video
    ? 'A photo cannot show liveness: only a weak single-frame check was made.'
    : result.is_live
      ? 'Liveness check passed: the head turn and blink of a live person were seen.'
      : 'Liveness check not passed: we did not see both a head turn and a blink.';
  if (result.status === 'approved') return { title: `Age verified: ${result.age_threshold}+`, liveness };
  if (video && result.is_live) {
    return {
      title: `Age not confirmed from your face (liveness passed)`,
      liveness:
        `${liveness} The age estimate is a separate check: it did not clear the ${result.age_threshold}+ cut-off, ` +
        'which is set so that people under the age are almost never approved. A document with a short video can prove it instead.',
    };
  }
  return { title: video ? 'Not verified: liveness not shown' : 'Not verified from a photo', liveness };
}

/**
 * Facial age check by camera (spec 01 §4 "Facial verification": idle → capturing → captured → verifying → result;
 * retake, re-record and try again reset it). A 5-second video is the default (a head turn and a blink show a live
 * person; a photo cannot). With `selfie`, the same screen records the live video of a document flow and hands it
 * back instead of verifying on its own.
 */
export function FacialCapture({
  onDone,
  selfie,
  onUseDocument,
}: {
  onDone: () => void;
  selfie?: { onRecorded: (video: Blob, challengeId: string) => void };
  /** After a rejection, the next step offered: the document route (issue 25 item 12). */
  onUseDocument?: () => void;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const timersRef = useRef<number[]>([]);
  const [mode, setMode] = useState<Mode>('video');
  const [phase, setPhase] = useState<Phase>('idle');
  // The preview shows frames only once play() resolves; until then there is nothing to capture.
  const [previewReady, setPreviewReady] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [captured, setCaptured] = useState<{ blob: Blob; url: string } | null>(null);
  const [countdown, setCountdown] = useState(0);
  const [elapsed, setElapsed] = useState(0);
  const [result, setResult] = useState<AgeVerificationResult | null>(null);
  // The challenge the recording answers; a fresh one for every recording (single-use, 60 s).
  const [challenge, setChallenge] = useState<LivenessChallenge | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const clearTimers = () => {
    timersRef.current.forEach((id) => window.clearInterval(id));
    timersRef.current = [];
  };
  const stopCamera = () => {
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
    setPreviewReady(false);
  };
  useEffect(
    () => () => {
      clearTimers();
      stopCamera();
    },
    [],
  );
  useEffect(() => () => (captured ? URL.revokeObjectURL(captured.url) : undefined), [captured]);

  const startCamera = async () => {
    setError(null);
    setFailure(null);
    setResult(null);
    if (!navigator.mediaDevices?.getUserMedia) {
      setError('Camera not available');
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        video: { width: { ideal: CAPTURE.width }, height: { ideal: CAPTURE.height }, facingMode: 'user' },
        audio: false,
      });
    } catch (reason) {
      setError(`Unable to access camera: ${reason instanceof Error ? reason.message : String(reason)}`);
      return;
    }
    streamRef.current = stream;
    setPhase('capturing');
    try {
      const video = videoRef.current;
      if (!video) throw new Error('no video element');
      video.srcObject = stream;
      await video.play();
      setPreviewReady(true);
    } catch {
      stopCamera();
      setPhase('idle');
      setError('Camera initialization failed. Please try again.');
    }
  };

  const takePhoto = () => {
    const video = videoRef.current;
    if (!video || video.readyState < 2 || !video.videoWidth) {
      setError('Camera not ready. Please wait a moment and try again.');
      return;
    }
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const context = canvas.getContext('2d');
    if (!context) {
      setError('Failed to capture image. Please try again.');
      return;
    }
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    canvas.toBlob(
      (blob) => {
        if (!blob) {
          setError('Failed to capture image. Please try again.');
          return;
        }
        stopCamera();
        setCaptured({ blob, url: URL.createObjectURL(blob) });
        setPhase('captured');
      },
      'image/jpeg',
      CAPTURE.jpegQuality,
    );
  };

  const record = async () => {
    setError(null);
    let asked: LivenessChallenge;
    try {
      asked = await verificationApi.challenge();
    } catch (reason) {
      setError(errorMessage(reason, 'Failed to start recording.'));
      return;
    }
    setChallenge(asked);
    const stream = streamRef.current;
    const type =
      typeof MediaRecorder === 'undefined' ? null : pickRecorderType((t) => MediaRecorder.isTypeSupported(t));
    if (!stream || !type) {
      setError('Failed to start recording.');
      return;
    }
    let recorder: MediaRecorder;
    try {
      recorder = new MediaRecorder(stream, {
        mimeType: type,
        videoBitsPerSecond: CAPTURE.videoBitsPerSecond,
      });
    } catch {
      setError('Failed to start recording.');
      return;
    }
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onerror = () => {
      clearTimers();
      stopCamera();
      setPhase('idle');
      setError('Recording failed');
    };
    recorder.onstop = () => {
      clearTimers();
      stopCamera();
      const blob = new Blob(chunks, { type: type.split(';')[0] });
      if (blob.size === 0) {
        setPhase('idle');
        setError('Recording failed');
        return;
      }
      setCaptured({ blob, url: URL.createObjectURL(blob) });
      setPhase('captured');
    };
    recorderRef.current = recorder;
    setError(null);
    setCountdown(CAPTURE.countdownSeconds);
    setPhase('countdown');
    let left = CAPTURE.countdownSeconds;
    const tick = window.setInterval(() => {
      left -= 1;
      setCountdown(left);
      if (left > 0) return;
      window.clearInterval(tick);
      try {
        recorder.start(CAPTURE.chunkMs);
      } catch {
        setPhase('capturing');
        setError('Failed to start recording.');
        return;
      }
      setPhase('recording');
      const started = Date.now();
      setElapsed(0);
      const clock = window.setInterval(() => {
        const seconds = (Date.now() - started) / 1000;
        setElapsed(seconds);
        if (seconds >= asked.recording_seconds && recorder.state === 'recording') recorder.stop();
      }, 100);
      timersRef.current.push(clock);
    }, 1000);
    timersRef.current.push(tick);
  };

  const stopEarly = () => {
    if (recorderRef.current?.state === 'recording') recorderRef.current.stop();
  };

  const verify = useMutation({
    mutationFn: ({ blob, challengeId }: { blob: Blob; challengeId?: string }) =>
      challengeId
        ? verificationApi.verifyAge(blob, 'video', 18, challengeId)
        : verificationApi.verifyAge(blob, 'image'),
    onMutate: () => {
      setPhase('verifying');
      setFailure(null);
    },
    onSuccess: (answer) => {
      setResult(answer);
      setPhase('result');
      onDone();
    },
    onError: (reason) => {
      setFailure(`Verification failed: ${errorMessage(reason, 'Verification failed')}`);
      setPhase('result');
    },
  });

  const reset = () => {
    clearTimers();
    stopCamera();
    setCaptured(null);
    setResult(null);
    setFailure(null);
    setPhase('idle');
    void startCamera();
  };

  const live = phase === 'capturing' || phase === 'countdown' || phase === 'recording';
  return (
    <div className="space-y-4">
      {selfie ? null : (
        <fieldset className="flex gap-4" disabled={phase !== 'idle' && phase !== 'capturing'}>
          <legend className="sr-only">Capture type</legend>
          {(['photo', 'video'] as const).map((option) => (
            <label key={option} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="capture-mode"
                value={option}
                checked={mode === option}
                onChange={() => setMode(option)}
              />
              {option === 'photo' ? 'Photo (cannot prove liveness)' : '5-second video (recommended)'}
            </label>
          ))}
        </fieldset>
      )}
      <p className="text-sm text-slate-700">
        {mode === 'photo'
          ? 'A single photo can estimate your age but cannot prove that a live person is in front of the camera, so it may not be enough on its own.'
          : 'After a 3-second countdown, look at the camera and do what each prompt asks as it appears (turn your head to the left or right, or blink). The prompts change with every recording.'}{' '}
        {selfie
          ? 'The video is sent with your document and compared with its photo on this server.'
          : 'Your face is analysed on this server and the image is not kept.'}
      </p>

      <div
        className="relative overflow-hidden rounded-xl bg-slate-900"
        style={{ aspectRatio: '4 / 3', maxWidth: CAPTURE.width }}
      >
        <video
          ref={videoRef}
          className={live ? 'size-full -scale-x-100 object-cover' : 'hidden'}
          muted
          playsInline
          aria-label="Camera preview"
        />
        {captured && !live ? (
          mode === 'photo' ? (
            <img src={captured.url} alt="Captured photo" className="size-full object-cover" />
          ) : (
            <video
              src={captured.url}
              controls
              className="size-full object-cover"
              aria-label="Recorded video"
            />
          )
        ) : null}
        {live ? <FaceGuide /> : null}
        {phase === 'countdown' ? (
          <div className="absolute inset-0 flex flex-col items-center justify-center bg-black/55 text-white">
            <p className="text-sm font-semibold tracking-wide uppercase">Recording starts in</p>
            <p
              className="text-8xl leading-none font-bold [text-shadow:0_2px_8px_rgba(0,0,0,0.9)]"
              aria-live="assertive"
            >
              {countdown}
            </p>
            <p className="mt-2 text-sm">Put your face inside the oval and follow the prompts</p>
          </div>
        ) : null}
        {phase === 'recording' && challenge ? (
          <ChallengePrompt challenge={challenge} elapsed={elapsed} />
        ) : null}
        {phase === 'idle' && !captured ? (
          <p className="absolute inset-0 flex items-center justify-center p-6 text-center text-sm text-slate-200">
            The camera is off.
          </p>
        ) : null}
      </div>

      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}

      <div className="flex flex-wrap gap-2">
        {phase === 'idle' ? <Button onClick={() => void startCamera()}>Start camera</Button> : null}
        {phase === 'capturing' && mode === 'photo' ? (
          <Button onClick={takePhoto} disabled={!previewReady}>
            Take photo
          </Button>
        ) : null}
        {phase === 'capturing' && mode === 'video' ? (
          <Button onClick={() => void record()} disabled={!previewReady}>
            Start recording
          </Button>
        ) : null}
        {phase === 'recording' ? (
          <Button variant="secondary" onClick={stopEarly}>
            Stop recording
          </Button>
        ) : null}
        {phase === 'captured' && captured && selfie ? (
          <>
            <Button onClick={() => challenge && selfie.onRecorded(captured.blob, challenge.id)}>
              Use this video
            </Button>
            <Button variant="secondary" onClick={reset}>
              Re-record
            </Button>
          </>
        ) : null}
        {phase === 'captured' && captured && !selfie ? (
          <>
            <Button
              onClick={() =>
                verify.mutate({
                  blob: captured.blob,
                  challengeId: mode === 'video' ? challenge?.id : undefined,
                })
              }
            >
              Verify my age
            </Button>
            <Button variant="secondary" onClick={reset}>
              {mode === 'photo' ? 'Retake' : 'Re-record'}
            </Button>
          </>
        ) : null}
        {phase === 'verifying' ? <Button busy>Verifying…</Button> : null}
        {phase === 'result' ? (
          <Button variant="secondary" onClick={reset}>
            Try again
          </Button>
        ) : null}
      </div>

      {mode === 'video' && (phase === 'idle' || phase === 'capturing') && !captured ? (
        <VideoUpload
          busy={verify.isPending}
          onChosen={(file, challengeId) => {
            stopCamera();
            if (selfie) selfie.onRecorded(file, challengeId);
            else verify.mutate({ blob: file, challengeId });
          }}
        />
      ) : null}

      {phase === 'result' && result ? (
        <ResultPanel
          status={result.status}
          headline={facialResultHeadline(result.status)}
          title={resultWording({ ...result, media_type: mode === 'photo' ? 'image' : 'video' }).title}
          message={result.message}
        >
          <p className="mt-2 text-xs">
            {resultWording({ ...result, media_type: mode === 'photo' ? 'image' : 'video' }).liveness}
          </p>
          {result.status === 'approved' ? (
            <p className="mt-1 text-xs">
              Estimated age {result.age} (range {result.age_range.min}–{result.age_range.max}) · confidence{' '}
              {Math.round(result.confidence * 100)}%
              {result.frames_analyzed !== undefined ? ` · ${result.frames_analyzed} frames` : ''}
            </p>
          ) : (
            <>
              <p className="mt-1 text-xs" data-testid="rejection-reason">
                {rejectionReason(result)}
              </p>
              {onUseDocument ? (
                <div className="mt-3 flex flex-wrap gap-2">
                  <Button onClick={onUseDocument}>Verify with a document instead</Button>
                </div>
              ) : null}
            </>
          )}
        </ResultPanel>
      ) : null}
      {phase === 'result' && failure ? (
        <ResultPanel status="failed" title="Verification failed" message={failure} />
      ) : null}
    </div>
  );
}

/** The prompt of the running challenge step over the preview, with the step's place and the seconds left. */
function ChallengePrompt({ challenge, elapsed }: { challenge: LivenessChallenge; elapsed: number }) {
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
function FaceGuide() {
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
