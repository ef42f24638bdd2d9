import {
  DataTypes,
  Model,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { plainTable, required } from './columns';

/**
 * A partner's subscription state beside `partners.plan` (the plan itself): status and, with Stripe, the customer,
 * the subscription and the end of the paid period.
 */
export class PartnerSubscription extends Model<
  InferAttributes<PartnerSubscription>,
  InferCreationAttributes<PartnerSubscription>
> {
  declare partner_id: string;
  declare status: string;
  declare stripe_customer_id: string | null;
  declare stripe_subscription_id: string | null;
  declare current_period_end: Date | null;
  declare updated_at: Date;

  static initModel(sequelize: Sequelize): typeof PartnerSubscription {
    PartnerSubscription.init(
      {
        partner_id: { type: DataTypes.UUID, primaryKey: true },
        status: required(DataTypes.STRING(16)),
        stripe_customer_id: DataTypes.STRING(255),
        stripe_subscription_id: DataTypes.STRING(255),
        current_period_end: DataTypes.DATE,
        updated_at: required(DataTypes.DATE),
      },
      plainTable(sequelize, 'partner_subscriptions'),
    );
    return PartnerSubscription;
  }
}
