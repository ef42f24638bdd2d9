import { describe, expect, it } from 'vitest';
import { documentReviewPoints } from './document-result';

const binding = {
  portrait_found: true,
  portrait_problem: null,
  live_video: 'passed' as const,
  liveness_reasons: [],
  face_match: { similarity: 0.8, threshold: 0.6, match: true },
  printed_fields: null,
  bound: true,
  review_reasons: [],
};

describe("a document in review, in its sender's words (issue 25 item 12)", () => {
  it('lists nothing for a bound document', () => {
    expect(documentReviewPoints(binding)).toEqual([]);
    expect(documentReviewPoints(undefined)).toEqual([]);
  });

  it('turns the binding facts into sentences, never the reviewers’ codes', () => {
    const points = documentReviewPoints({
      ...binding,
      bound: false,
      portrait_found: false,
      portrait_problem: 'no_face',
      live_video: 'failed',
      liveness_reasons: ['no_head_turn'],
      face_match: null,
      review_reasons: [
        'no portrait face found on the document (no_face)',
        'the live video did not pass the liveness challenge (no_head_turn)',
      ],
    });
    expect(points).toEqual([
      'We could not find the photo of your face on the document.',
      'Your video did not clearly show a head turn and a blink.',
    ]);
    expect(points.join(' ')).not.toMatch(/no_face|no_head_turn|\(/);
  });

  it('names a face that does not match, and a printed date that disagrees', () => {
    expect(
      documentReviewPoints({
        ...binding,
        bound: false,
        face_match: { similarity: 0.2, threshold: 0.6, match: false },
        printed_fields: { date_of_birth: 'conflicts', expiry_date: 'agrees', name: 'agrees' },
      }),
    ).toEqual([
      'Your face in the video did not clearly match the photo on the document.',
      'A printed date did not match the machine-readable lines at the bottom of the page.',
    ]);
  });

  it('sums up what it cannot name (a document already used by another account)', () => {
    expect(documentReviewPoints({ ...binding, bound: false })).toEqual([
      'Some details could not be confirmed automatically.',
    ]);
  });
});
