import type { Sequelize } from 'sequelize';
import { AuditLog } from './AuditLog';
import { NewsletterSubscriber } from './NewsletterSubscriber';
import { OneTimeToken } from './OneTimeToken';
import { Session } from './Session';
import { User } from './User';
import { UserPhoto } from './UserPhoto';

export function initModels(sequelize: Sequelize) {
  return {
    User: User.initModel(sequelize),
    Session: Session.initModel(sequelize),
    AuditLog: AuditLog.initModel(sequelize),
    OneTimeToken: OneTimeToken.initModel(sequelize),
    UserPhoto: UserPhoto.initModel(sequelize),
    NewsletterSubscriber: NewsletterSubscriber.initModel(sequelize),
  };
}
export type Models = ReturnType<typeof initModels>;

export { AuditLog, NewsletterSubscriber, OneTimeToken, Session, User, UserPhoto };
export type { OneTimeTokenPurpose } from './OneTimeToken';
