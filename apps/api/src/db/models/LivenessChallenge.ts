import { nullable, plainTable, primaryKey, required, sql } from './columns';
import type { ChallengeAction } from '@attestly/contracts';

export interface StoredChallengeStep {
  action: ChallengeAction;
  start_seconds: number;
  end_seconds: number;
}

/** A liveness challenge issued to a user (modules/users/verification/challenge.ts); answers at most one video. */
export class LivenessChallenge extends plainTable('liveness_challenges', {
  id: primaryKey(sql.uuid()),
  user_id: required(sql.uuid()),
  steps: required(sql.json<StoredChallengeStep[]>()),
  created_at: required(sql.date()),
  expires_at: required(sql.date()),
  /** Set once, atomically, when a video presents the challenge. */
  consumed_at: nullable(sql.date()),
}) {}
