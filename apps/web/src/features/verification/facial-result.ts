import type { AgeVerificationResult } from '@attestly/contracts';

/** Why a threshold was not approved, as the vision engine reports it (models/src/types.ts ThresholdDecision). */
type DecisionReason = 'approved' | 'below_cutoff' | 'not_calibrated' | 'child_guard' | 'frames_disagree';

function decisionReason(result: Pick<AgeVerificationResult, 'extracted_data'>): DecisionReason | null {
  const decision = result.extracted_data.threshold_decision as { reason?: DecisionReason } | null | undefined;
  return decision?.reason ?? null;
}

/**
 * What the estimated age on a camera result means (issue 25 item 12): an estimate of 32 shown beside "not 18+"
 * without a reason reads as a broken product, so the estimate always comes with the reason this attempt fell short.
 * Approved results return null (the estimate needs no excuse).
 */
export function rejectionReason(
  result: Pick<
    AgeVerificationResult,
    'status' | 'age' | 'age_range' | 'age_threshold' | 'is_live' | 'extracted_data'
  >,
): string | null {
  if (result.status === 'approved') return null;
  const T = result.age_threshold;
  const estimate = `Estimated age ${result.age} (range ${result.age_range.min}–${result.age_range.max})`;
  const faceCleared = result.extracted_data.face_clears_threshold === true;
  const photo = result.extracted_data.media_type === 'image';
  if (faceCleared) {
    return photo
      ? `${estimate}: your face passed the ${T}+ age check, but one photo cannot show that a live person took it, so this installation does not approve from a photo.`
      : `${estimate}: your face passed the ${T}+ age check, but the liveness check did not, and both are needed.`;
  }
  switch (decisionReason(result)) {
    case 'child_guard':
      return `${estimate}, but a second check that looks for children's faces flagged this one, and it overrides the estimate. Not approved for ${T}+.`;
    case 'frames_disagree':
      return `${estimate} overall, but too few of the video's frames cleared the ${T}+ cut-off on their own to be sure. Not approved for ${T}+.`;
    case 'not_calibrated':
      return `This installation has no calibrated camera check for ${T}+, so the estimate (${result.age}) cannot approve it.`;
    default:
      return (
        `${estimate}. An estimate from a face can be years out, so a camera check approves ${T}+ only when the face ` +
        `clears a cut-off set well above ${T} (people under ${T} must almost never pass). This one did not clear it.`
      );
  }
}

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
      : 'Liveness check not passed: the video did not show a live person doing what the prompts asked.';
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
