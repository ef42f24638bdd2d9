import type { ThresholdDecision } from './types';

export const PHOTO_LIVENESS_NOTE =
  'A single photo cannot prove that a live person is present; this is a weak passive check only. ' +
  'Record a short video with a head turn and a blink for a liveness check.';

export const VIDEO_LIVENESS_NOTE =
  "Liveness is judged from the head turns and the blink the prompts asked for, in their order, and from the head's " +
  '3-D movement across the video frames.';

export function ageMessage(decisions: readonly ThresholdDecision[]): string {
  if (!decisions.length) return 'Your age was estimated.';
  const approved = decisions.filter((d) => d.approved);
  const highest = decisions[decisions.length - 1]!;
  if (approved.length === decisions.length) return `Your face meets the age check for ${highest.threshold}+.`;
  const first = decisions.find((d) => !d.approved)!;
  return (
    `We could not confirm from your face alone that you are ${first.threshold} or older. ` +
    'Please verify your age with an identity document instead.'
  );
}

/** "a", "a and b", "a, b and c". */
const listing = new Intl.ListFormat('en-GB', { type: 'conjunction' });

export function videoLivenessMessage(reasons: readonly string[]): string {
  const asks: string[] = [];
  if (reasons.includes('face_not_visible_enough')) asks.push('keep your face in view for the whole video');
  // The camera screen's own words: do what each prompt asks, turn only when asked, face the camera after each turn.
  if (reasons.includes('no_head_turn'))
    asks.push('turn your head slowly when a prompt asks, then face the camera again');
  if (reasons.includes('no_blink')) asks.push('blink when a prompt asks');
  return (
    `We could not confirm that this was a live recording. Please record again and ${listing.format(asks) || 'follow the prompts'}, ` +
    'or verify your age with an identity document.'
  );
}
