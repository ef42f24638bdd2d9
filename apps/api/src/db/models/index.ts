import type { Sequelize } from 'sequelize';
import { Admin } from './Admin';
import { AdminBackupCode } from './AdminBackupCode';
import { UserFlag } from './UserFlag';
import { ApiKey } from './ApiKey';
import { CardCheck } from './CardCheck';
import { LivenessChallenge } from './LivenessChallenge';
import { AuditLog } from './AuditLog';
import { EventOutbox } from './EventOutbox';
import { NewsletterSubscriber } from './NewsletterSubscriber';
import { OAuthAuthorization } from './OAuthAuthorization';
import { OidcPayload } from './OidcPayload';
import { OidcSigningKey } from './OidcSigningKey';
import { OneTimeToken } from './OneTimeToken';
import { Partner } from './Partner';
import { Session } from './Session';
import { Site } from './Site';
import { SiteIcon } from './SiteIcon';
import { User } from './User';
import { UserPhoto } from './UserPhoto';
import { Verification } from './Verification';
import { VerificationMedia } from './VerificationMedia';
import { PartnerSubscription } from './PartnerSubscription';
import { WebhookAttempt } from './WebhookAttempt';
import { WebhookDelivery } from './WebhookDelivery';
import { WebhookEndpoint } from './WebhookEndpoint';

export function initModels(sequelize: Sequelize) {
  return {
    Admin: Admin.initModel(sequelize),
    AdminBackupCode: AdminBackupCode.initModel(sequelize),
    UserFlag: UserFlag.initModel(sequelize),
    User: User.initModel(sequelize),
    Session: Session.initModel(sequelize),
    AuditLog: AuditLog.initModel(sequelize),
    OneTimeToken: OneTimeToken.initModel(sequelize),
    UserPhoto: UserPhoto.initModel(sequelize),
    NewsletterSubscriber: NewsletterSubscriber.initModel(sequelize),
    Partner: Partner.initModel(sequelize),
    Site: Site.initModel(sequelize),
    SiteIcon: SiteIcon.initModel(sequelize),
    OidcPayload: OidcPayload.initModel(sequelize),
    OidcSigningKey: OidcSigningKey.initModel(sequelize),
    OAuthAuthorization: OAuthAuthorization.initModel(sequelize),
    EventOutbox: EventOutbox.initModel(sequelize),
    Verification: Verification.initModel(sequelize),
    VerificationMedia: VerificationMedia.initModel(sequelize),
    WebhookEndpoint: WebhookEndpoint.initModel(sequelize),
    WebhookDelivery: WebhookDelivery.initModel(sequelize),
    WebhookAttempt: WebhookAttempt.initModel(sequelize),
    PartnerSubscription: PartnerSubscription.initModel(sequelize),
    ApiKey: ApiKey.initModel(sequelize),
    CardCheck: CardCheck.initModel(sequelize),
    LivenessChallenge: LivenessChallenge.initModel(sequelize),
  };
}
export type Models = ReturnType<typeof initModels>;

export { AuditLog, NewsletterSubscriber, OneTimeToken, Session, User, UserPhoto };
export type { OneTimeTokenPurpose } from './OneTimeToken';
export { Verification, VerificationMedia };
export { ApiKey };
export type { ReviewNote } from './Verification';
export { PartnerSubscription, WebhookAttempt, WebhookDelivery, WebhookEndpoint };
export { EventOutbox, OAuthAuthorization, OidcPayload, OidcSigningKey, Partner, Site, SiteIcon };
export { Admin, AdminBackupCode, UserFlag };
