import type { DocumentAnalysis } from '@attestly/contracts';

type Binding = NonNullable<DocumentAnalysis['holder_binding']>;

/**
 * What a reviewer will look at, in the words of the person who sent the document (issue 25 item 12): the server's
 * review reasons are written for reviewers and carry internal codes such as `(no_face)`, so the user's list is built
 * from the binding's facts instead.
 */
export function documentReviewPoints(binding: Binding | undefined): string[] {
  if (!binding || binding.bound) return [];
  const points: string[] = [];
  if (!binding.portrait_found) points.push('We could not find the photo of your face on the document.');
  if (binding.live_video === 'missing' || binding.live_video === 'unusable') {
    points.push('Your video could not be used to compare with the document.');
  } else if (binding.live_video === 'failed') {
    points.push('Your video did not clearly show a head turn and a blink.');
  }
  if (binding.face_match && !binding.face_match.match) {
    points.push('Your face in the video did not clearly match the photo on the document.');
  } else if (!binding.face_match && binding.portrait_found && binding.live_video === 'passed') {
    points.push('The photo on the document could not be compared with your video.');
  }
  const printed = binding.printed_fields;
  if (printed && (printed.date_of_birth === 'conflicts' || printed.expiry_date === 'conflicts')) {
    points.push('A printed date did not match the machine-readable lines at the bottom of the page.');
  }
  // Anything else the reviewer checks (for example a document already used by another account) is summed up.
  if (points.length === 0) points.push('Some details could not be confirmed automatically.');
  return points;
}
