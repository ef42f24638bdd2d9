import { randomUUID } from 'node:crypto';
import { Op } from 'sequelize';
import {
  CHALLENGE_PROMPTS,
  LIVENESS_CHALLENGE,
  type ChallengeAction,
  type LivenessChallenge,
} from '@attestly/contracts';
import type { StoredChallengeStep } from '../../../db/models/LivenessChallenge';
import type { Deps } from '../../../core/deps';
import { AppError } from '../../../errors';
import { cryptoRandom, type RandomSource } from '../../../lib/random';

/**
 * The last window ends this long before the recording does, so the person has time to finish the last motion and
 * the screen has time to say "hold still" before the recorder stops (a window ending with the recording left no
 * visible end of the last prompt).
 */
const TAIL = { min: 0.3, max: 0.6 };
const LEAD_IN = { min: 0.3, max: 0.7 };
/** Window lengths vary by ±25 % around an even split. */
const WEIGHT = { min: 0.75, max: 1.25 };

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Fisher–Yates with the given source. */
function shuffle<T>(items: T[], random: RandomSource): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Draws the steps of a challenge (issue 23 item 1): two or three, always one blink and at least one turn (so the
 * engine's own recipe, a head turn and a blink, is asked for too), in random order; with two steps the turn's
 * direction is random, with three both directions are asked. The windows follow one another from a random lead-in,
 * with random lengths, and end 0.3–0.6 s before the recording does (LIVENESS_CHALLENGE.recordingSeconds).
 */
export function drawChallengeSteps(random: RandomSource): StoredChallengeStep[] {
  const count = 2 + random.int(2);
  const turns: ChallengeAction[] =
    count === 3 ? ['turn_left', 'turn_right'] : [random.int(2) === 0 ? 'turn_left' : 'turn_right'];
  const actions = shuffle<ChallengeAction>([...turns, 'blink'], random);
  const lead = LEAD_IN.min + random.unit() * (LEAD_IN.max - LEAD_IN.min);
  const slack = TAIL.min + random.unit() * (TAIL.max - TAIL.min);
  const weights = actions.map(() => WEIGHT.min + random.unit() * (WEIGHT.max - WEIGHT.min));
  const total = weights.reduce((a, b) => a + b, 0);
  const span = LIVENESS_CHALLENGE.recordingSeconds - lead - slack;
  let start = lead;
  return actions.map((action, index) => {
    const end = start + (span * (weights[index] as number)) / total;
    const step = { action, start_seconds: round1(start), end_seconds: round1(end) };
    start = end;
    return step;
  });
}

export type ChallengeRefusal = 'unknown' | 'expired' | 'used';

const REFUSALS: Record<ChallengeRefusal, { code: string; message: string }> = {
  unknown: { code: 'verification.challenge_invalid', message: LIVENESS_CHALLENGE.unknownMessage },
  expired: { code: 'verification.challenge_expired', message: LIVENESS_CHALLENGE.expiredMessage },
  used: { code: 'verification.challenge_used', message: LIVENESS_CHALLENGE.usedMessage },
};

/**
 * Liveness challenges (issue 23 item 1): issued to a signed-in user, kept in the database so any replica can
 * check them, consumed at most once by the video that answers them.
 */
export function createChallengeService(deps: Deps) {
  const { db, clock } = deps;
  const random = deps.random ?? cryptoRandom;
  const { LivenessChallenge: Challenge } = db.models;

  async function issue(userId: string): Promise<LivenessChallenge> {
    const now = clock.now();
    const steps = drawChallengeSteps(random);
    const row = await Challenge.create({
      // The id is a bearer of nothing (it only works for its user), but it is never drawn from a test's source.
      id: randomUUID(),
      user_id: userId,
      steps,
      created_at: now,
      expires_at: new Date(now.getTime() + LIVENESS_CHALLENGE.ttlSeconds * 1000),
      consumed_at: null,
    });
    return {
      id: row.id,
      steps: steps.map((step) => ({ ...step, prompt: CHALLENGE_PROMPTS[step.action] })),
      recording_seconds: LIVENESS_CHALLENGE.recordingSeconds,
      tolerance_seconds: LIVENESS_CHALLENGE.toleranceSeconds,
      expires_at: row.expires_at.toISOString(),
    };
  }

  /**
   * Spends the user's challenge: one UPDATE that succeeds only for an unspent, unexpired challenge of this user, so
   * two uploads racing on any replicas cannot both pass. Refused (422) when missing, unknown, another user's (told
   * apart from unknown by nothing), expired or already used. Returns the steps the video must show.
   */
  async function consume(userId: string, challengeId: string): Promise<StoredChallengeStep[]> {
    if (!challengeId) {
      throw new AppError(422, 'verification.challenge_required', LIVENESS_CHALLENGE.missingMessage, [
        { path: 'challenge_id', message: LIVENESS_CHALLENGE.missingMessage },
      ]);
    }
    const now = clock.now();
    const [spent] = await Challenge.update(
      { consumed_at: now },
      {
        where: {
          id: challengeId,
          user_id: userId,
          consumed_at: null,
          expires_at: { [Op.gt]: now },
        },
      },
    );
    const row = await Challenge.findOne({ where: { id: challengeId, user_id: userId } });
    if (spent === 1 && row) return row.steps;
    const refusal: ChallengeRefusal = !row ? 'unknown' : row.consumed_at ? 'used' : 'expired';
    const { code, message } = REFUSALS[refusal];
    throw new AppError(422, code, message, [{ path: 'challenge_id', message }]);
  }

  /** Deletes challenges past their expiry (spent or not): they can answer nothing any more. */
  async function purgeExpired(): Promise<number> {
    return Challenge.destroy({ where: { expires_at: { [Op.lte]: clock.now() } } });
  }

  return { issue, consume, purgeExpired };
}
export type ChallengeService = ReturnType<typeof createChallengeService>;
