import { useEffect, useRef, useState } from 'react';
import type { LivenessChallenge } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { verificationApi } from '../../api/verification';

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

export type Phase = 'idle' | 'capturing' | 'countdown' | 'recording' | 'captured' | 'verifying' | 'result';

/**
 * The camera side of the facial check (spec 01 §4, §9): the preview, a photo taken from it, or a recording that
 * answers a fresh liveness challenge after a countdown. The phase is shared with the screen, which moves it on
 * through verifying and result.
 */
export function useCameraCapture() {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const timersRef = useRef<number[]>([]);
  const [phase, setPhase] = useState<Phase>('idle');
  // The preview shows frames only once play() resolves; until then there is nothing to capture.
  const [previewReady, setPreviewReady] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [captured, setCaptured] = useState<{ blob: Blob; url: string } | null>(null);
  const [countdown, setCountdown] = useState(0);
  const [elapsed, setElapsed] = useState(0);
  // The challenge the recording answers; a fresh one for every recording (single-use, 60 s).
  const [challenge, setChallenge] = useState<LivenessChallenge | null>(null);

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
      // The recorder stops on a tick after one that showed the closing prompt ("hold still"), so the person always
      // sees the last step end: on a busy device the ticks can come late enough to jump from inside the last window
      // past the end of the recording (the recording is then a tick longer).
      const lastEnd = asked.steps.at(-1)?.end_seconds ?? 0;
      let closingShown = false;
      const clock = window.setInterval(() => {
        const seconds = (Date.now() - started) / 1000;
        setElapsed(seconds);
        if (seconds >= asked.recording_seconds && closingShown && recorder.state === 'recording')
          recorder.stop();
        if (seconds >= lastEnd) closingShown = true;
      }, 100);
      timersRef.current.push(clock);
    }, 1000);
    timersRef.current.push(tick);
  };

  const stopEarly = () => {
    if (recorderRef.current?.state === 'recording') recorderRef.current.stop();
  };

  /** Drops what was captured and opens the camera again (retake, re-record, try again). */
  const restart = () => {
    clearTimers();
    stopCamera();
    setCaptured(null);
    setPhase('idle');
    void startCamera();
  };

  return {
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
  };
}
