import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { AgeVerificationResult } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { verificationApi } from '../../api/verification';
import { Button } from '../../components/ui/button';
import { ChallengePrompt, FaceGuide } from './capture-overlays';
import { rejectionReason, resultWording } from './facial-result';
import { ResultPanel, facialResultHeadline } from './result-panel';
import { CAPTURE, useCameraCapture } from './use-camera-capture';
import { VideoUpload } from './video-upload';

type Mode = 'photo' | 'video';

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
  const {
    videoRef,
    phase,
    setPhase,
    previewReady,
    error,
    captured,
    countdown,
    elapsed,
    challenge,
    startCamera,
    stopCamera,
    takePhoto,
    record,
    stopEarly,
    restart,
  } = useCameraCapture();
  const [mode, setMode] = useState<Mode>('video');
  const [result, setResult] = useState<AgeVerificationResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const openCamera = () => {
    setFailure(null);
    setResult(null);
    void startCamera();
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
    setResult(null);
    setFailure(null);
    restart();
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
          : 'After a 3-second countdown, look at the camera and do what each prompt asks as it appears (turn your head to the left or right, or blink), and turn only when asked, facing the camera again after each turn. The prompts change with every recording.'}{' '}
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
        {phase === 'idle' ? <Button onClick={openCamera}>Start camera</Button> : null}
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
