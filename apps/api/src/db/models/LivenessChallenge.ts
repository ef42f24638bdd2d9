import {
  DataTypes,
  Model,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
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
        user_id: { type: DataTypes.UUID, allowNull: false },
        steps: { type: DataTypes.JSON, allowNull: false },
        created_at: { type: DataTypes.DATE, allowNull: false },
        expires_at: { type: DataTypes.DATE, allowNull: false },
        consumed_at: DataTypes.DATE,
      },
      { sequelize, tableName: 'liveness_challenges', timestamps: false },
    );
    return LivenessChallenge;
  }
}
