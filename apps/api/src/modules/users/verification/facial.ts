import type { PhotoAnalysis, VideoAnalysis } from '@attestly/models';
import type { AgeThreshold, AgeVerificationResult } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import type { RequestOrigin } from '../../shared/sessions/service';
import type { ChallengeService } from './challenge';
import type { VerificationService } from './service';
import { requireEngine, runAnalysis } from './vision';

export interface FaceMedia {
  bytes: Uint8Array;
  /** Sniffed from the content. */
  mime: string;
  mediaType: 'image' | 'video';
  threshold: AgeThreshold;
  /** The liveness challenge a video answers (challenge.ts); photos need none. */
  challengeId?: string;
}

const DOCUMENT_ROUTE_HINT = 'You can verify your age with an identity document instead.';

export function photoPolicyMessage(threshold: number): string {
  return (
    `Your photo passed the ${threshold}+ age estimate, but a single photo cannot prove that a live person is in ` +
    'front of the camera. Please record a 5-second video (turn your head and blink when asked) or verify your age ' +
    'with an identity document.'
  );
}

/**
 * Facial age verification (DESIGN.md §5, spec 01 §3 "Age verification result"). The engine decides whether the
 * face clears the calibrated cut-off for T; this applies the liveness policy: a video must answer the fresh
 * challenge the server issued for it (challenge.ts: its motions in order inside their windows, which include a head
 * turn and a blink), and a photo may approve only where configuration allows it, because one
 * frame cannot show a live person. Media is analysed in memory and never kept: nothing here needs a reviewer.
 */
export function createFacialVerification(
  deps: Deps,
  verifications: VerificationService,
  challenges: ChallengeService,
) {
  const { config } = deps;

  async function verify(
    userId: string,
    media: FaceMedia,
    origin: RequestOrigin,
  ): Promise<AgeVerificationResult> {
    const engine = requireEngine(deps.vision, 'Facial age verification');
    const T = media.threshold;
    // Spent before the analysis, whatever its outcome: a clip answers one challenge once (issue 23 item 1).
    const challenge =
      media.mediaType === 'video' ? await challenges.consume(userId, media.challengeId ?? '') : null;
    const analysis = await runAnalysis<PhotoAnalysis | VideoAnalysis>(() =>
      challenge
        ? engine.analyzeVideo(media.bytes, { thresholds: [T], challenge })
        : engine.analyzePhoto(media.bytes, { thresholds: [T] }),
    );
    const clears = analysis.approved_thresholds.includes(T);
    let approved: boolean;
    let message: string;
    if (analysis.media_type === 'image') {
      approved = clears && analysis.is_live && config.photoCanApprove;
      if (approved) message = `Your age is verified: ${T}+.`;
      else if (clears && !config.photoCanApprove) message = photoPolicyMessage(T);
      else message = withDocumentHint(analysis.message);
    } else {
      approved = clears && analysis.is_live;
      message = approved ? `Your age is verified: ${T}+.` : withDocumentHint(analysis.message);
    }
    const decision = analysis.threshold_decisions.find((d) => d.threshold === T);
    const extracted: Record<string, unknown> = {
      media_type: analysis.media_type,
      age_threshold: T,
      estimated_age: analysis.age,
      age_range: analysis.age_range,
      decision_mode: analysis.decision_mode,
      threshold_decision: decision ?? null,
      face_clears_threshold: clears,
      photo_can_approve: analysis.media_type === 'image' ? config.photoCanApprove : undefined,
      liveness_method: analysis.liveness_method,
      liveness_confidence: analysis.liveness_confidence,
      liveness_note: analysis.liveness_note,
      quality: { score: analysis.quality.score, reasons: analysis.quality.reasons },
      processing_ms: analysis.timings_ms.total,
      media_stored: false,
    };
    const video =
      analysis.media_type === 'video'
        ? {
            frames_analyzed: analysis.frames_analyzed,
            video_duration: analysis.video_duration,
            live_percentage: analysis.live_percentage,
            video_liveness: analysis.video_liveness,
            eye_measurements: analysis.eye_measurements,
          }
        : null;
    if (analysis.media_type === 'video') {
      extracted.head_yaw_range = analysis.head_yaw_range;
      extracted.blinks = analysis.blinks;
      extracted.challenge = analysis.challenge
        ? {
            id: media.challengeId,
            passed: analysis.challenge.passed,
            steps: analysis.challenge.steps,
            unasked_turns: analysis.challenge.unaskedTurns,
          }
        : null;
    }
    const row = await verifications.record(
      {
        userId,
        type: 'age',
        method: 'facial_recognition',
        status: approved ? 'approved' : 'rejected',
        confidence: analysis.confidence,
        ageThreshold: T,
        message,
        // The eye-aspect series is kept in the answer only; the row keeps the summary.
        details: {
          ...extracted,
          ...(video ? { ...video, eye_measurements: undefined } : {}),
          is_live: analysis.is_live,
        },
        proves: { minAge: T },
      },
      origin,
    );
    return {
      age: analysis.age,
      confidence: analysis.confidence,
      is_live: analysis.is_live,
      verification_id: row.id,
      status: approved ? 'approved' : 'rejected',
      message,
      age_threshold: T,
      age_range: analysis.age_range,
      extracted_data: extracted,
      ...(video ?? {}),
    };
  }

  return { verify };
}

function withDocumentHint(message: string): string {
  return /document/i.test(message) ? message : `${message} ${DOCUMENT_ROUTE_HINT}`;
}
