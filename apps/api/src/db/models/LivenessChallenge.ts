import {
  DataTypes,
  Model,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { plainTable, required } from './columns';
import type { ChallengeAction } from '@attestly/contracts';

export interface StoredChallengeStep {
  action: ChallengeAction;
  start_seconds: number;
  end_seconds: number;
}

/** A liveness challenge issued to a user (modules/users/verification/challenge.ts); answers at most one video. */
export class LivenessChallenge extends Model<
  InferAttributes<LivenessChallenge>,
  InferCreationAttributes<LivenessChallenge>
> {
  declare id: string;
  declare user_id: string;
  declare steps: StoredChallengeStep[];
  declare created_at: Date;
  declare expires_at: Date;
  /** Set once, atomically, when a video presents the challenge. */
  declare consumed_at: Date | null;

  static initModel(sequelize: Sequelize): typeof LivenessChallenge {
    LivenessChallenge.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true },
        user_id: required(DataTypes.UUID),
        steps: required(DataTypes.JSON),
        created_at: required(DataTypes.DATE),
        expires_at: required(DataTypes.DATE),
        consumed_at: DataTypes.DATE,
      },
      plainTable(sequelize, 'liveness_challenges'),
    );
    return LivenessChallenge;
  }
}
