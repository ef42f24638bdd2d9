import type * as v from 'valibot';
import type {
  admin2faSetupSchema,
  adminAccessTokenSchema,
  adminApiKeySchema,
  adminAuthorizationSchema,
  adminCreatedSiteSchema,
  adminPartnerDetailSchema,
  adminPartnerListSchema,
  adminRevokedTokenSchema,
  adminUserDetailSchema,
  adminUserListSchema,
  adminVerificationDetailSchema,
  adminVerificationListSchema,
  checkoutSessionSchema,
  checkoutSuccessSchema,
  partnerAuditListSchema,
  planListSchema,
  portalSessionSchema,
  stripeWebhookAnswerSchema,
  userExportSchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookListSchema,
  webhookSchema,
  webhookTestResultSchema,
} from '@attestly/contracts';
import type { AdminPartnerService } from '../../backoffice/partners/service';
import type { AdminTokenService } from '../../backoffice/tokens/service';
import type { AdminUserService } from '../../backoffice/users/service';
import type { AdminVerificationService } from '../../backoffice/verifications/service';
import type { AdminService } from '../../backoffice/accounts/service';
import type { BillingService } from '../../partners/billing/service';
import type { PartnerStatsService } from '../../partners/stats/service';
import type { USER_EXPORT_FORMAT, UserExport } from '../../users/accounts/export';
import type { WebhookService } from '../../partners/webhooks/service';

/**
 * Compile-time proof that the answer schemas the routes declare (from @attestly/contracts) describe what the
 * services really return, for answers whose type is inferred here rather than written down in the contracts (where
 * the contracts' own `agree` lines do this). Nothing here runs.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Every answer the service can give passes the schema, and the schema names exactly the answer's fields. */
type Fits<A, B> = [A] extends [B] ? Same<keyof A, keyof B> : false;
type Agree<T extends true> = T;
type Out<S extends v.GenericSchema> = v.InferOutput<S>;
type Answer<F> = F extends (...args: never[]) => infer R ? Awaited<R> : never;

/** JSON as sent: `undefined` members vanish, so `x?: T` and `x: T | undefined` read the same. */
type Json<T> = T extends Date
  ? string
  : T extends string | number | boolean | null | undefined
    ? T
    : T extends ReadonlyArray<infer I>
      ? Array<Json<I>>
      : T extends object
        ? { [K in keyof T]: Json<T[K]> }
        : T;

export type Agreements = [
  Agree<
    Fits<
      Omit<Json<UserExport>, 'format'> & { format: typeof USER_EXPORT_FORMAT },
      Out<typeof userExportSchema>
    >
  >,
  Agree<Fits<Answer<WebhookService['list']>, Out<typeof webhookListSchema>>>,
  Agree<Fits<Answer<WebhookService['create']>, Out<typeof webhookSchema>>>,
  Agree<Fits<Answer<WebhookService['update']>, Out<typeof webhookSchema>>>,
  Agree<Fits<Answer<WebhookService['test']>, Out<typeof webhookTestResultSchema>>>,
  Agree<Fits<Answer<WebhookService['deliveries']>, Out<typeof webhookDeliveryListSchema>>>,
  Agree<Fits<Answer<WebhookService['redeliver']>, Out<typeof webhookDeliverySchema>>>,
  Agree<Fits<Json<{ data: ReturnType<BillingService['plans']> }>, Out<typeof planListSchema>>>,
  Agree<Fits<Answer<BillingService['checkoutSession']>, Out<typeof checkoutSessionSchema>>>,
  Agree<Fits<Answer<BillingService['portalSession']>, Out<typeof portalSessionSchema>>>,
  Agree<Fits<Answer<BillingService['checkoutSuccess']>, Out<typeof checkoutSuccessSchema>>>,
  Agree<Fits<Answer<BillingService['handleStripeWebhook']>, Out<typeof stripeWebhookAnswerSchema>>>,
  Agree<Fits<Answer<PartnerStatsService['auditLogs']>, Out<typeof partnerAuditListSchema>>>,
  Agree<Fits<Answer<AdminService['setup2fa']>, Out<typeof admin2faSetupSchema>>>,
  Agree<Fits<Answer<AdminPartnerService['list']>, Out<typeof adminPartnerListSchema>>>,
  Agree<Fits<Answer<AdminPartnerService['create']>, Out<typeof adminPartnerDetailSchema>>>,
  Agree<Fits<Answer<AdminPartnerService['regenerateApiKey']>, Out<typeof adminApiKeySchema>>>,
  Agree<Fits<Answer<AdminPartnerService['createSite']>, Out<typeof adminCreatedSiteSchema>>>,
  Agree<Fits<Answer<AdminUserService['list']>, Out<typeof adminUserListSchema>>>,
  Agree<Fits<Answer<AdminUserService['detail']>, Out<typeof adminUserDetailSchema>>>,
  Agree<Fits<Answer<AdminVerificationService['list']>, Out<typeof adminVerificationListSchema>>>,
  Agree<Fits<Answer<AdminVerificationService['detail']>, Out<typeof adminVerificationDetailSchema>>>,
  Agree<Fits<Answer<AdminTokenService['revokeToken']>, Out<typeof adminRevokedTokenSchema>>>,
  Agree<Fits<Answer<AdminTokenService['revokeAuthorization']>, Out<typeof adminAuthorizationSchema>>>,
  Agree<Fits<Answer<AdminTokenService['listTokens']>['tokens'][number], Out<typeof adminAccessTokenSchema>>>,
];
