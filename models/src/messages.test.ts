import { describe, expect, it } from 'vitest';
import { videoLivenessMessage } from './messages';

describe('videoLivenessMessage', () => {
  it("asks for what was missing in the camera screen's words: follow the prompts, turn only when asked", () => {
    const message = videoLivenessMessage(['no_head_turn', 'no_blink']);
    expect(message).toContain('turn your head slowly when a prompt asks, then face the camera again');
    expect(message).toContain('then face the camera again and blink when a prompt asks, or verify');
    expect(message).toMatch(/or verify your age with an identity document\.$/);
  });

  it('falls back to the prompts when the reason is not one a person can act on (a 2-D warp)', () => {
    expect(videoLivenessMessage(['motion_is_2d_warp'])).toContain(
      'Please record again and follow the prompts',
    );
  });
});
