import type { InferAttributes } from 'sequelize';
import type { User } from '../../../db/models/index';
import type { Deps } from '../../../core/deps';
import { withoutReuse } from '../verification/document-reuse';
import { presentVerification } from '../verification/presenters';
import { presentUser } from './presenters';

/** The version of the export's shape, so that a reader can tell which fields to expect. */
export const USER_EXPORT_FORMAT = 'attestly.user-export/1';

/**
 * Keys of a verification's result that the export leaves out: card data (spec: never stored beyond brand and last
 * four, and not handed out again), and facts about *other* accounts (a card or document seen elsewhere) that are
 * not this person's data.
 */
const WITHHELD_RESULT_KEYS =
  /^(brand|last4|expiry_month|expiry_year)$|card|other_account|fingerprint|number_hash/i;

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

/**
 * Everything Attestly holds about one user, as one JSON document (GDPR Art. 15 access and Art. 20 portability):
 * profile and photo, contact verification, verification records (results and dates — never media or card data),
 * proven facts and their expiry, the partners they connected and the grants given, sign-in sessions, newsletter
 * subscription and the audit entries about them. Built from rows selected by this user's id (and address) alone.
 */
export function createUserExport({ db, clock }: Pick<Deps, 'db' | 'clock'>) {
  const {
    Verification,
    OAuthAuthorization,
    Session,
    AuditLog,
    UserPhoto,
    NewsletterSubscriber,
    Site,
    Partner,
  } = db.models;

  return async function exportUser(user: InferAttributes<User>) {
    const now = clock.now();
    const [verifications, grants, sessions, auditEntries, photo, newsletter] = await Promise.all([
      Verification.findAll({ where: { user_id: user.id }, order: [['created_at', 'ASC']] }),
      OAuthAuthorization.findAll({ where: { user_id: user.id }, order: [['created_at', 'ASC']] }),
      Session.findAll({ where: { kind: 'user', subject_id: user.id }, order: [['created_at', 'ASC']] }),
      AuditLog.findAll({ where: { user_id: user.id }, order: [['id', 'ASC']] }),
      UserPhoto.findOne({ where: { user_id: user.id } }),
      NewsletterSubscriber.findOne({ where: { email: user.email } }),
    ]);
    const siteIds = [...new Set(grants.map((grant) => grant.site_id))];
    const sites = siteIds.length ? await Site.findAll({ where: { id: siteIds } }) : [];
    const partnerIds = [...new Set(sites.map((site) => site.partner_id))];
    const partners = partnerIds.length ? await Partner.findAll({ where: { id: partnerIds } }) : [];
    const siteById = new Map(sites.map((site) => [site.id, site]));
    const partnerById = new Map(partners.map((partner) => [partner.id, partner]));

    return {
      format: USER_EXPORT_FORMAT,
      exported_at: now.toISOString(),
      profile: {
        ...presentUser(user, now),
        last_login_at: iso(user.last_login_at),
        photo: photo
          ? { content_type: photo.content_type, data_base64: Buffer.from(photo.bytes).toString('base64') }
          : null,
      },
      contact_verification: {
        email: user.email,
        email_verified_at: iso(user.email_verified_at),
        phone: user.phone,
        phone_verified_at: iso(user.phone_verified_at),
        phone_awaiting_verification: user.pending_phone,
      },
      proven_facts: {
        minimum_age: user.proven_min_age,
        age_verified_at: iso(user.age_verified_at),
        age_valid_until: iso(user.age_verified_until),
        location: user.location_country
          ? { country: user.location_country, state: user.location_state }
          : null,
        location_verified_at: iso(user.location_verified_at),
        location_valid_until: iso(user.location_verified_until),
        identity_verified_at: iso(user.identity_verified_at),
        identity_valid_until: iso(user.identity_verified_until),
      },
      verifications: verifications.map((row) => {
        const presented = presentVerification(row, now);
        return {
          ...presented,
          details: Object.fromEntries(
            Object.entries(presented.details).filter(([key]) => !WITHHELD_RESULT_KEYS.test(key)),
          ),
          // System notes may name the document's reuse on other accounts, which is not this person's data.
          review_notes: row.review_notes.map((note) => ({
            timestamp: note.timestamp,
            note: withoutReuse(note.note),
          })),
          valid_until: iso(row.expires_at),
        };
      }),
      connected_sites: grants.map((grant) => {
        const site = siteById.get(grant.site_id);
        const partner = site ? partnerById.get(site.partner_id) : undefined;
        return {
          grant_id: grant.id,
          site: site ? { name: site.site_name, domain: site.domain } : null,
          partner: partner ? { company_name: partner.company_name } : null,
          scopes: grant.scopes,
          age_threshold: grant.age_threshold,
          granted_at: iso(grant.created_at),
          expires_at: iso(grant.expires_at),
          last_used_at: iso(grant.last_used_at),
          revoked_at: iso(grant.revoked_at),
          revoked_reason: grant.revoked_reason,
        };
      }),
      sessions: sessions.map((session) => ({
        id: session.id,
        created_at: iso(session.created_at),
        last_used_at: iso(session.last_used_at),
        expires_at: iso(session.expires_at),
        remember_me: session.remember,
        ip_address: session.ip_address,
        user_agent: session.user_agent,
      })),
      newsletter: newsletter
        ? {
            email: newsletter.email,
            subscribed_at: iso(newsletter.created_at),
            confirmed_at: iso(newsletter.confirmed_at),
            unsubscribed_at: iso(newsletter.unsubscribed_at),
          }
        : null,
      audit_entries: auditEntries.map((entry) => ({
        id: entry.id,
        event_type: entry.event_type,
        severity: entry.severity,
        created_at: iso(entry.created_at),
        ip_address: entry.ip_address,
        user_agent: entry.user_agent,
        details: safeJson(entry.details),
      })),
    };
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export type UserExport = Awaited<ReturnType<ReturnType<typeof createUserExport>>>;
