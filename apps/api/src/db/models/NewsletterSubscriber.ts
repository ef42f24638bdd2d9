import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { required, stampedTable, uuidKey } from './columns';

/** Double opt-in: `confirmed_at` is set only from the link in the confirmation mail. */
export class NewsletterSubscriber extends Model<
  InferAttributes<NewsletterSubscriber>,
  InferCreationAttributes<NewsletterSubscriber>
> {
  declare id: CreationOptional<string>;
  declare email: string;
  /** Keyed hash of the unsubscribe secret carried by every mail. */
  declare unsubscribe_hash: string;
  declare confirmed_at: Date | null;
  declare unsubscribed_at: Date | null;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof NewsletterSubscriber {
    NewsletterSubscriber.init(
      {
        id: uuidKey(),
        email: { type: DataTypes.STRING(254), allowNull: false, unique: true },
        unsubscribe_hash: required(DataTypes.STRING(64)),
        confirmed_at: DataTypes.DATE,
        unsubscribed_at: DataTypes.DATE,
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      stampedTable(sequelize, 'newsletter_subscribers'),
    );
    return NewsletterSubscriber;
  }
}
