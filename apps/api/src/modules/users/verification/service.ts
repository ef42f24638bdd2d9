import { QueryTypes, UniqueConstraintError } from 'sequelize';
import type {
  ReviewerDocumentAnalysis,
  VerificationMethod,
  VerificationStatus,
  VerificationStatusAnswer,
  VerificationType,
} from '@attestly/contracts';
import type { ReviewNote, Verification } from '../../../db/models/index';
import type { Deps } from '../../../core/deps';
import { AppError, notFound } from '../../../errors';
import { mediaKey, sealMedia } from '../../../lib/media-crypto';
import type { AuditService } from '../../shared/audit/service';
import type { RequestOrigin } from '../../shared/sessions/service';
import { presentVerification } from './presenters';
import {
  attributeAttempt,
  chargeReviewedApproval,
  tellPartner,
  type UncountedApproval,
} from './partner-attribution';
import { emitVerificationEvent } from '../../partners/webhooks/events';
import { lockOpenCase } from './withdraw';
import { pageOf } from '../../shared/paging/page';
import { applyFacts, live, type ProvenFacts } from './facts';
import { createKeptMedia, mediaContext } from './kept-media';

export type { ProvenFacts } from './facts';
export { MEDIA_PURGE_INTERVAL_MS } from './kept-media';

export interface NewVerification {
  userId: string;
  type: VerificationType;
  method: VerificationMethod;
  status: VerificationStatus;
  confidence: number | null;
  ageThreshold: number | null;
  needsReview?: boolean;
  message: string;
  details: Record<string, unknown>;
  documentAnalysis?: ReviewerDocumentAnalysis | null;
  fingerprint?: string | null;
  /** Applied to the user now when approved, or later by a reviewer when pending. */
  proves?: ProvenFacts;
  /** Kept (encrypted) only for a case a person must review: one file, or several (a document and its video). */
  media?: { bytes: Uint8Array; contentType: string } | { bytes: Uint8Array; contentType: string }[] | null;
  systemNote?: string;
  /**
   * A document this approval binds to the account (keyed hash of its number). Held by another account → the
   * record fails with DocumentClaimedError and nothing is written, so the caller can send the case to review.
   */
  claim?: { fingerprint: string } | null;
}

/** The document of an approval already proves another account (document_claims). */
export class DocumentClaimedError extends Error {
  constructor() {
    super('document already proves another account');
    this.name = 'DocumentClaimedError';
  }
}

const RECENT_LIMIT = 10;

/** The origin of a verification request; `interaction` is the OIDC interaction uid the user came from, if any. */
export interface VerificationOrigin extends RequestOrigin {
  interaction?: string | null;
}
export type AttributionLookup = (
  userId: string,
  interaction: string | null | undefined,
) => Promise<{ partnerId: string; siteId: string | null; sandbox: boolean } | null>;

/**
 * Verification rows, the user's proven facts and the media kept for review (DESIGN.md §5). The method files
 * (facial.ts, document.ts, credit-card.ts, location.ts) decide; this records, applies (facts.ts) and audits;
 * kept-media.ts decrypts the kept media for the reviewer and purges it.
 */
export function createVerificationService(
  deps: Deps,
  { audit, attribution }: { audit: AuditService; attribution?: AttributionLookup },
) {
  const { db, clock, config } = deps;
  const { User, Verification, VerificationMedia } = db.models;
  const key = mediaKey(config.masterKey);
  const { reviewMedia, purgeMedia } = createKeptMedia(deps, audit);

  function auditEvent(status: VerificationStatus) {
    if (status === 'approved') return 'verification.completed';
    if (status === 'pending') return 'verification.submitted';
    return 'verification.failed';
  }

  async function record(input: NewVerification, origin: VerificationOrigin): Promise<Verification> {
    const now = clock.now();
    // The partner whose sign-in flow sent the user here (partner statistics, modules/partners/stats).
    const forPartner = attribution ? await attribution(input.userId, origin.interaction) : null;
    let uncounted: UncountedApproval | null = null;
    const notes: ReviewNote[] = input.systemNote
      ? [{ timestamp: now.toISOString(), note: input.systemNote, author: 'system' }]
      : [];
    const row = await db.sequelize
      .transaction(async (transaction) => {
        const user = await User.findByPk(input.userId, { transaction, lock: db.dialect === 'postgres' });
        if (!user) throw notFound('User not found');
        // An upload still in flight when its account was erased: nothing is recorded for the erased row.
        if (user.deleted_at)
          throw new AppError(409, 'verification.account_deleted', 'This account has been deleted');
        // Whether it counts for that partner: attempts capped per user, approvals within the quota (never refused).
        const counted = await attributeAttempt(
          deps,
          { userId: input.userId, type: input.type, status: input.status, candidate: forPartner },
          transaction,
        );
        uncounted = counted.uncounted;
        let claimHeld = false;
        if (input.claim && input.status === 'approved') {
          const [held] = (await db.sequelize.query(
            'SELECT user_id FROM document_claims WHERE fingerprint = :fingerprint',
            { replacements: { fingerprint: input.claim.fingerprint }, transaction, type: QueryTypes.SELECT },
          )) as { user_id: string }[];
          if (held && held.user_id !== input.userId) throw new DocumentClaimedError();
          claimHeld = !!held;
        }
        const created = await Verification.create(
          {
            user_id: input.userId,
            verification_type: input.type,
            verification_method: input.method,
            status: input.status,
            confidence_score: input.confidence,
            age_threshold: input.ageThreshold,
            needs_manual_review: input.needsReview ?? false,
            message: input.message.slice(0, 500),
            result_details: { ...input.details, ...(input.proves ? { proves: input.proves } : {}) },
            document_analysis: input.documentAnalysis ?? null,
            review_notes: notes,
            subject_fingerprint: input.fingerprint ?? null,
            partner_id: counted.attribution?.partnerId ?? null,
            site_id: counted.attribution?.siteId ?? null,
            sandbox: counted.attribution?.sandbox ?? false,
            reviewed_at: null,
            reviewed_by: null,
            expires_at: null,
            created_at: now,
            updated_at: now,
          },
          { transaction },
        );
        // A verification made for a partner is announced by webhook.
        await emitVerificationEvent(deps, created, transaction);
        if (input.status === 'approved' && input.proves) {
          created.expires_at = await applyFacts(config, user, input.proves, now, transaction);
          await created.save({ transaction });
        }
        if (input.claim && input.status === 'approved' && !claimHeld) {
          // Primary key on the fingerprint: a concurrent approval of the same document on another account fails here.
          await db.sequelize.query(
            'INSERT INTO document_claims (fingerprint, user_id, verification_id, created_at) VALUES (:fingerprint, :userId, :verificationId, :now)',
            {
              replacements: {
                fingerprint: input.claim.fingerprint,
                userId: input.userId,
                verificationId: created.id,
                now,
              },
              transaction,
            },
          );
        }
        const media = input.media ? (Array.isArray(input.media) ? input.media : [input.media]) : [];
        if (input.needsReview) {
          for (const [index, item] of media.entries()) {
            const sealed = sealMedia(key, item.bytes, mediaContext(created.id));
            await VerificationMedia.create(
              {
                verification_id: created.id,
                content_type: item.contentType,
                byte_length: item.bytes.byteLength,
                iv: sealed.iv,
                auth_tag: sealed.authTag,
                ciphertext: sealed.ciphertext,
                purge_after: new Date(now.getTime() + config.mediaRetentionMs),
                // Distinct, ordered timestamps keep the reviewer's list in upload order (document, then video).
                created_at: new Date(now.getTime() + index),
              },
              { transaction },
            );
          }
        }
        return created;
      })
      .catch((error: unknown) => {
        if (error instanceof UniqueConstraintError && input.claim) throw new DocumentClaimedError();
        throw error;
      });
    if (uncounted) await tellPartner(audit, uncounted);
    await audit.recordSafely({
      event: auditEvent(row.status),
      severity: row.status === 'approved' || row.status === 'pending' ? 'info' : 'warning',
      userId: input.userId,
      partnerId: row.partner_id,
      ip: origin.ip,
      userAgent: origin.userAgent,
      details: {
        verification_id: row.id,
        ...(row.site_id ? { site_id: row.site_id, sandbox: row.sandbox } : {}),
        verification_type: row.verification_type,
        verification_method: row.verification_method,
        status: row.status,
        age_threshold: row.age_threshold,
        needs_manual_review: row.needs_manual_review,
      },
    });
    return row;
  }

  async function ownedBy(userId: string, id: string): Promise<Verification> {
    // Looked up by owner and id together: another user's id is indistinguishable from a missing one (IDOR).
    const row = await Verification.findOne({ where: { id, user_id: userId } });
    if (!row) throw notFound('Verification not found');
    return row;
  }

  async function status(userId: string): Promise<VerificationStatusAnswer> {
    const user = await User.findByPk(userId);
    if (!user) throw notFound('User not found');
    const now = clock.now();
    const [recent, pendingReviews] = await Promise.all([
      Verification.findAll({
        where: { user_id: userId },
        order: [['created_at', 'DESC']],
        limit: RECENT_LIMIT,
      }),
      Verification.count({ where: { user_id: userId, status: 'pending', needs_manual_review: true } }),
    ]);
    const ageVerified = user.proven_min_age !== null && live(user.age_verified_until, now);
    const locationVerified = live(user.location_verified_until, now);
    const identityVerified = live(user.identity_verified_until, now);
    const proven = [ageVerified, locationVerified, identityVerified].filter(Boolean).length;
    const iso = (date: Date | null, valid: boolean) => (valid && date ? date.toISOString() : null);
    return {
      // spec 01 §4 "Overall verification".
      overall: proven === 3 ? 'fully_verified' : proven > 0 ? 'partially_verified' : 'not_verified',
      age_verified: ageVerified,
      proven_min_age: ageVerified ? user.proven_min_age : null,
      age_verified_at: iso(user.age_verified_at, ageVerified),
      age_verified_until: iso(user.age_verified_until, ageVerified),
      location_verified: locationVerified,
      location: locationVerified ? { country: user.location_country, state: user.location_state } : null,
      location_verified_at: iso(user.location_verified_at, locationVerified),
      location_verified_until: iso(user.location_verified_until, locationVerified),
      identity_verified: identityVerified,
      identity_verified_at: iso(user.identity_verified_at, identityVerified),
      identity_verified_until: iso(user.identity_verified_until, identityVerified),
      pending_reviews: pendingReviews,
      verifications: recent.map((row) => presentVerification(row, now)),
    };
  }

  async function list(userId: string, skip: number, limit: number) {
    return pageOf(
      Verification,
      { where: { user_id: userId }, order: [['created_at', 'DESC']] },
      { skip, limit },
    );
  }

  /**
   * A reviewer's decision on a pending case (spec 02 "Approve"/"Reject"): approval applies what the case proves;
   * either way the kept media is deleted, since it was kept only for this review.
   */
  async function review(
    id: string,
    decision: {
      approve: boolean;
      notes: string;
      adminUserId: string;
      confidenceOverride?: number | null;
      reason?: string;
    },
    origin: RequestOrigin,
  ): Promise<Verification> {
    const now = clock.now();
    let uncounted: UncountedApproval | null = null;
    const row = await db.sequelize.transaction(async (transaction) => {
      // Locks the account, then the case, and refuses a withdrawn one (withdraw.ts): no proof for an erased row.
      const { user, row: found } = await lockOpenCase(db, id, transaction);
      if (found.status !== 'pending')
        throw new AppError(409, 'verification.not_pending', 'Only pending verifications can be reviewed');
      found.status = decision.approve ? 'approved' : 'rejected';
      found.needs_manual_review = false;
      found.reviewed_at = now;
      found.reviewed_by = decision.adminUserId;
      if (decision.confidenceOverride !== undefined && decision.confidenceOverride !== null) {
        found.confidence_score = decision.confidenceOverride;
      }
      const note = decision.reason ? `${decision.reason}: ${decision.notes}` : decision.notes;
      found.review_notes = [
        ...found.review_notes,
        { timestamp: now.toISOString(), note, author: decision.adminUserId },
      ];
      // An approval counts toward the partner's quota now, or is no longer attributed to it (partner-attribution.ts).
      if (decision.approve) uncounted = await chargeReviewedApproval(deps, found, transaction);
      const proves = (found.result_details as { proves?: ProvenFacts }).proves;
      if (decision.approve && proves)
        found.expires_at = await applyFacts(config, user, proves, now, transaction);
      found.changed('review_notes', true);
      await found.save({ transaction });
      await VerificationMedia.destroy({ where: { verification_id: found.id }, transaction });
      await emitVerificationEvent(deps, found, transaction);
      return found;
    });
    if (uncounted) await tellPartner(audit, uncounted);
    await audit.recordSafely({
      event: 'verification.reviewed',
      userId: row.user_id,
      adminUserId: decision.adminUserId,
      ip: origin.ip,
      userAgent: origin.userAgent,
      details: { verification_id: row.id, status: row.status, verification_type: row.verification_type },
    });
    return row;
  }

  return { record, ownedBy, status, list, review, reviewMedia, purgeMedia };
}
export type VerificationService = ReturnType<typeof createVerificationService>;
