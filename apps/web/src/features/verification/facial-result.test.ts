import { describe, expect, it } from 'vitest';
import { rejectionReason } from './facial-result';

const base = {
  status: 'rejected' as const,
  age: 32,
  age_range: { min: 26, max: 38 },
  age_threshold: 18,
  is_live: true,
};

describe('why a camera result with an adult-looking estimate is not 18+ (issue 25 item 12)', () => {
  it('says nothing for an approval', () => {
    expect(rejectionReason({ ...base, status: 'approved', extracted_data: {} })).toBeNull();
  });

  it('names the cut-off when the face did not clear it, with the estimate and its range', () => {
    const reason = rejectionReason({
      ...base,
      extracted_data: { face_clears_threshold: false, threshold_decision: { reason: 'below_cutoff' } },
    })!;
    expect(reason).toMatch(/^Estimated age 32 \(range 26–38\)\./);
    expect(reason).toMatch(/cut-off set well above 18/);
  });

  it('says the age passed and liveness did not, when that is what happened', () => {
    const reason = rejectionReason({
      ...base,
      is_live: false,
      extracted_data: { face_clears_threshold: true, media_type: 'video' },
    })!;
    expect(reason).toContain('your face passed the 18+ age check, but the liveness check did not');
  });

  it('explains the photo policy, the child check, disagreeing frames and a missing calibration', () => {
    const of = (extracted_data: Record<string, unknown>) => rejectionReason({ ...base, extracted_data })!;
    expect(of({ face_clears_threshold: true, media_type: 'image' })).toMatch(/one photo cannot show/);
    expect(of({ face_clears_threshold: false, threshold_decision: { reason: 'child_guard' } })).toMatch(
      /children's faces/,
    );
    expect(of({ face_clears_threshold: false, threshold_decision: { reason: 'frames_disagree' } })).toMatch(
      /too few of the video's frames/,
    );
    expect(of({ face_clears_threshold: false, threshold_decision: { reason: 'not_calibrated' } })).toMatch(
      /no calibrated camera check for 18\+/,
    );
  });
});
