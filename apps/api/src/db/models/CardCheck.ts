import {
  DataTypes,
  Model,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { plainTable, required } from './columns';

/** A Stripe SetupIntent created for a user's credit-card age check (modules/users/verification/credit-card.ts). */
export class CardCheck extends Model<InferAttributes<CardCheck>, InferCreationAttributes<CardCheck>> {
  declare setup_intent_id: string;
  declare user_id: string;
  declare verification_id: string | null;
  declare created_at: Date;
  /** Set once, atomically, when the check is decided: the SetupIntent cannot prove twice. */
  declare decided_at: Date | null;

  static initModel(sequelize: Sequelize): typeof CardCheck {
    CardCheck.init(
      {
        setup_intent_id: { type: DataTypes.STRING(255), primaryKey: true },
        user_id: required(DataTypes.UUID),
        verification_id: DataTypes.UUID,
        created_at: required(DataTypes.DATE),
        decided_at: DataTypes.DATE,
      },
      plainTable(sequelize, 'card_checks'),
    );
    return CardCheck;
  }
}
