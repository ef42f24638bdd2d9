import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

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
        id: { type: DataTypes.UUID, defaultValue: DataTypes.UUIDV4, primaryKey: true },
        email: { type: DataTypes.STRING(254), allowNull: false, unique: true },
        unsubscribe_hash: { type: DataTypes.STRING(64), allowNull: false },
        confirmed_at: DataTypes.DATE,
        unsubscribed_at: DataTypes.DATE,
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      {
        sequelize,
        tableName: 'newsletter_subscribers',
        underscored: true,
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
    );
    return NewsletterSubscriber;
  }
}
