import type * as v from 'valibot';
import type {
  adminApproveVerificationBody,
  adminRejectVerificationBody,
  adminRetriggerVerificationBody,
  adminVerificationListQuery,
} from '@attestly/contracts';
import { type DocumentType } from '@attestly/contracts';
import type { Deps } from '../../../deps';
import { AppError, notFound } from '../../../errors';
import type { AuditService } from '../../audit/service';
import { decideDocument, documentAnalysis } from '../../verification/document';
import type { VerificationModule } from '../../verification/service';
import { requireEngine, runAnalysis } from '../../verification/vision';
import { LIKE_ESCAPE, Where, likePattern, lowered, page, type AdminActor } from '../common';
import { presentAdminVerification, presentAdminVerificationDetail, type VerificationRow } from './presenters';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SELECT = `v.id, v.user_id, u.email AS user_email, v.verification_type, v.verification_method, v.status,
  v.confidence_score, v.needs_manual_review, v.age_threshold, v.message, v.partner_id, v.site_id, v.created_at,
  v.reviewed_at, v.reviewed_by, v.expires_at,
  (SELECT COUNT(*) FROM verification_media m WHERE m.verification_id = v.id) AS has_media`;

/**
 * The manual review queue (spec 02 "Verifications", issue 9): lists with every filter, the case with its kept
 * media, and the reviewer's approve / reject / retrigger. Decisions go through the verification service, so an
 * approval applies exactly what the case proves (age, identity) and the kept media is deleted once decided.
 */
export function createAdminVerificationService(
  deps: Deps,
  { audit, verifications }: { audit: AuditService; verifications: VerificationModule },
) {
  const { db, clock, mailer, logger } = deps;
  const { Verification, VerificationMedia, User } = db.models;

  async function list(query: v.InferOutput<typeof adminVerificationListQuery>) {
    const where = new Where();
    const from = 'verifications v LEFT JOIN users u ON u.id = v.user_id';
    if (query.status) where.add('v.status = :status', { status: query.status });
    if (query.type) where.add('v.verification_type = :type', { type: query.type });
    if (query.method) where.add('v.verification_method = :method', { method: query.method });
    if (query.needs_review !== undefined)
      where.add('v.needs_manual_review = :review', { review: query.needs_review });
    if (query.user_id) where.add('v.user_id = :user', { user: query.user_id });
    if (query.start_date) where.add('v.created_at >= :start', { start: query.start_date });
    if (query.end_date) where.add('v.created_at <= :end', { end: query.end_date });
    if (query.search) {
      if (UUID.test(query.search)) {
        const id = query.search.toLowerCase();
        where.add('(v.id = :id OR v.user_id = :id)', { id });
      } else {
        // Matching accounts first (the pg_trgm index on LOWER(email) on PostgreSQL, one pass over users
        // elsewhere), then their verifications through the (user_id, created_at, id) index.
        where.add(
          `v.user_id IN (SELECT su.id FROM users su WHERE ${lowered(db, 'su.email')} LIKE :pattern ${LIKE_ESCAPE})`,
          { pattern: likePattern(query.search) },
        );
      }
    }
    // Every filter is on verifications: the count needs no join.
    const countFrom = 'verifications v';
    // The queue: cases waiting for a person first, newest first. With any filter (needs_review=true is the queue
    // itself) newest first, so the (filter, created_at) index delivers the page without sorting the matches.
    const filtered =
      query.status || query.needs_review !== undefined || query.type || query.method || query.user_id;
    const order = filtered
      ? 'v.created_at DESC, v.id DESC'
      : 'v.needs_manual_review DESC, v.created_at DESC, v.id DESC';
    // Deferred join: the page's ids over the index matching filter and order (migration 20261126120000), then
    // the 50 rows with their user's email and media count.
    const result = await page<VerificationRow>(
      db,
      { select: SELECT, from, where, order, countFrom, key: 'v.id', scan: !!query.search },
      query,
    );
    const now = clock.now();
    return {
      verifications: result.rows.map((row) => presentAdminVerification(row, now)),
      total_count: result.total,
    };
  }

  async function findRow(id: string): Promise<VerificationRow> {
    const [row] = await db.read<VerificationRow>(
      `SELECT ${SELECT} FROM verifications v LEFT JOIN users u ON u.id = v.user_id WHERE v.id = :id`,
      { id },
    );
    if (!row) throw notFound('Verification not found');
    return row;
  }

  async function detail(id: string) {
    const row = await findRow(id);
    const full = await Verification.findByPk(id, {
      attributes: ['document_analysis', 'result_details', 'review_notes'],
    });
    const media = await VerificationMedia.findAll({
      where: { verification_id: id },
      attributes: ['id', 'content_type', 'byte_length', 'purge_after'],
      order: [['created_at', 'ASC']],
    });
    return presentAdminVerificationDetail(
      row,
      {
        document_analysis: full?.document_analysis ?? null,
        result_details: full?.result_details ?? {},
        review_notes: full?.review_notes ?? [],
        media,
      },
      clock.now(),
    );
  }

  /** The user hears of a reviewer's decision by mail; a failed mail is logged, the decision stands. */
  async function tellUser(userId: string, subject: string, text: string): Promise<void> {
    const user = await User.findByPk(userId, { attributes: ['email', 'full_name', 'deleted_at'] });
    if (!user || user.deleted_at) return;
    try {
      await mailer.send({ to: user.email, subject, text: `Hello ${user.full_name},\n\n${text}\n` });
    } catch (error) {
      logger.error({ err: error }, 'review decision mail failed');
    }
  }

  const KIND: Record<string, string> = {
    age: 'age verification',
    identity: 'identity verification',
    location: 'location verification',
  };

  async function approve(
    id: string,
    body: v.InferOutput<typeof adminApproveVerificationBody>,
    who: AdminActor,
  ) {
    const row = await verifications.review(
      id,
      {
        approve: true,
        notes: body.reviewer_notes,
        adminUserId: who.adminUserId,
        confidenceOverride: body.confidence_override ?? null,
      },
      who,
    );
    await audit.recordSafely({
      event: 'verification_approved',
      userId: row.user_id,
      partnerId: row.partner_id,
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
      details: {
        verification_id: row.id,
        verification_type: row.verification_type,
        confidence_override: body.confidence_override ?? null,
      },
    });
    await tellUser(
      row.user_id,
      'Your verification was approved',
      `A reviewer has approved your ${KIND[row.verification_type] ?? 'verification'}. ` +
        'Partner sites you connect to can now rely on it.',
    );
    return detail(row.id);
  }

  async function reject(
    id: string,
    body: v.InferOutput<typeof adminRejectVerificationBody>,
    who: AdminActor,
  ) {
    const row = await verifications.review(
      id,
      {
        approve: false,
        notes: body.reviewer_notes,
        reason: body.rejection_reason,
        adminUserId: who.adminUserId,
      },
      who,
    );
    await Verification.update(
      { message: `Rejected by a reviewer: ${body.rejection_reason}`.slice(0, 500) },
      { where: { id: row.id } },
    );
    await audit.recordSafely({
      event: 'verification_rejected',
      severity: 'warning',
      userId: row.user_id,
      partnerId: row.partner_id,
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
      details: {
        verification_id: row.id,
        verification_type: row.verification_type,
        rejection_reason: body.rejection_reason,
      },
    });
    await tellUser(
      row.user_id,
      'Your verification was not approved',
      `A reviewer could not approve your ${KIND[row.verification_type] ?? 'verification'}.\n\n` +
        `Reason: ${body.rejection_reason}\n\nYou can verify again with another method or a clearer document.`,
    );
    return detail(row.id);
  }

  /**
   * Runs the document analysis again on the media kept (encrypted) for the case, with today's models and clock.
   * The case returns to the queue with the new analysis; a clean result is then decided through the same review
   * path as a person's decision (so the facts, the media deletion and the audit follow the same rules).
   */
  async function retrigger(
    id: string,
    body: v.InferOutput<typeof adminRetriggerVerificationBody>,
    who: AdminActor,
  ) {
    const row = await Verification.findByPk(id);
    if (!row) throw notFound('Verification not found');
    if (!['failed', 'rejected', 'pending'].includes(row.status)) {
      throw new AppError(
        409,
        'verification.not_retriggerable',
        'Only pending, failed or rejected verifications can be retriggered',
      );
    }
    if (row.verification_method !== 'document') {
      throw new AppError(
        409,
        'verification.nothing_to_rerun',
        'Only document verifications can be re-analysed; ask the user to verify again',
      );
    }
    const media = await verifications.reviewMedia(id);
    const first = media[0];
    if (!first) {
      throw new AppError(
        409,
        'verification.media_gone',
        'The media of this verification is no longer kept; ask the user to verify again',
      );
    }
    const engine = requireEngine(deps.vision, 'Document analysis');
    const reading = await runAnalysis(() => engine.readDocument(first.bytes, first.contentType));
    const now = clock.now();
    const previous = row.document_analysis;
    const threshold = (row.age_threshold ?? 18) as 12 | 16 | 18 | 21;
    const analysis = documentAnalysis(
      reading,
      { documentType: (previous?.document_type ?? 'other') as DocumentType, threshold },
      now,
    );
    const verificationType = row.verification_type === 'identity' ? 'identity' : 'age';
    const outcome = decideDocument(analysis, reading, verificationType);
    const note =
      `Retriggered by admin${body.force_reprocess ? ' (force reprocess)' : ''}: ${outcome.reason}` +
      (body.notes ? ` — ${body.notes}` : '');
    // Back to a pending case with the new analysis; then decided like a review when the reading is clean.
    row.status = 'pending';
    row.needs_manual_review = true;
    row.document_analysis = analysis;
    row.confidence_score = reading.confidence;
    row.reviewed_at = null;
    row.reviewed_by = null;
    row.result_details = {
      ...row.result_details,
      decision: outcome.reason,
      retriggered_at: now.toISOString(),
      ...(analysis.calculated_age !== null && verificationType === 'age'
        ? { proves: { minAge: analysis.calculated_age } }
        : {}),
    };
    row.review_notes = [...row.review_notes, { timestamp: now.toISOString(), note, author: who.adminUserId }];
    row.changed('review_notes', true);
    row.changed('result_details', true);
    await row.save();
    await audit.recordSafely({
      event: 'verification_retriggered',
      userId: row.user_id,
      partnerId: row.partner_id,
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
      details: { verification_id: row.id, force_reprocess: body.force_reprocess, outcome: outcome.status },
    });
    if (outcome.status === 'approved') {
      return approve(id, { reviewer_notes: `Automatic re-analysis: ${outcome.reason}` }, who);
    }
    if (outcome.status === 'rejected') {
      return reject(
        id,
        { rejection_reason: outcome.message, reviewer_notes: `Automatic re-analysis: ${outcome.reason}` },
        who,
      );
    }
    return detail(id);
  }

  /** The kept media, decrypted for one viewing; every viewing is audited. */
  async function media(id: string, mediaId: string, who: AdminActor) {
    const row = await Verification.findByPk(id, { attributes: ['id', 'user_id', 'partner_id'] });
    if (!row) throw notFound('Verification not found');
    const found = (await verifications.reviewMedia(id)).find((item) => item.id === mediaId);
    if (!found) throw notFound('Media not found');
    await audit.record({
      event: 'verification_media_viewed',
      userId: row.user_id,
      partnerId: row.partner_id,
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
      details: { verification_id: id, media_id: mediaId, content_type: found.contentType },
    });
    return found;
  }

  return { list, detail, approve, reject, retrigger, media };
}
export type AdminVerificationService = ReturnType<typeof createAdminVerificationService>;
