import type * as v from 'valibot';
import type {
  adminApproveVerificationBody,
  adminRejectVerificationBody,
  adminRetriggerVerificationBody,
  adminVerificationListQuery,
} from '@attestly/contracts';
import { type AgeThreshold, type DocumentType } from '@attestly/contracts';
import { UniqueConstraintError } from 'sequelize';
import type { Deps } from '../../../core/deps';
import { AppError, notFound } from '../../../errors';
import type { AuditService } from '../../shared/audit/service';
import {
  bindingProblems,
  decideDocument,
  documentAnalysis,
  documentFingerprint,
  holderSummary,
  otherAccounts,
  type HolderBinding,
} from '../../users/verification/document-decision';
import type { VerificationModule } from '../../users/verification/index';
import { requireEngine, runAnalysis } from '../../users/verification/vision';
import { isWithdrawn, lockOpenCase, withdrawnCase } from '../../users/verification/withdraw';
import { type AdminActor } from '../common';
import { Where, page, probeRows, type PageQuery } from '../../shared/paging/page';
import { containsTerm, shortTerm } from '../../shared/paging/search';
import { presentAdminVerification, presentAdminVerificationDetail, type VerificationRow } from './presenters';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The listed columns. `document_media` counts the kept documents (not the live videos): what Retrigger re-reads.
 * `holder_bound` is the document analysis' holder check (verification/document-decision.ts), read from its JSON.
 */
const selectColumns = (dialect: 'sqlite' | 'postgres') => `v.id, v.user_id, u.email AS user_email,
  v.verification_type, v.verification_method, v.status,
  v.confidence_score, v.needs_manual_review, v.age_threshold, v.message, v.partner_id, v.site_id, v.created_at,
  v.reviewed_at, v.reviewed_by, v.expires_at,
  (SELECT COUNT(*) FROM verification_media m WHERE m.verification_id = v.id) AS has_media,
  (SELECT COUNT(*) FROM verification_media m WHERE m.verification_id = v.id AND m.content_type NOT LIKE 'video/%')
    AS document_media,
  ${
    dialect === 'postgres'
      ? "((v.document_analysis::jsonb) -> 'holder_binding' ->> 'bound')"
      : "json_extract(v.document_analysis, '$.holder_binding.bound')"
  } AS holder_bound`;

/**
 * The manual review queue (spec 02 "Verifications", issue 9): lists with every filter, the case with its kept
 * media, and the reviewer's approve / reject / retrigger. Decisions go through the verification service, so an
 * approval applies exactly what the case proves (age, identity) and the kept media is deleted once decided.
 */
export function createAdminVerificationService(
  deps: Deps,
  { audit, verifications }: { audit: AuditService; verifications: VerificationModule },
) {
  const { db, clock, mailer, logger, config } = deps;
  const { Verification, VerificationMedia, User } = db.models;
  const SELECT = selectColumns(db.dialect);

  async function list(query: v.InferOutput<typeof adminVerificationListQuery>) {
    const where = new Where();
    let probe: PageQuery['probe'];
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
        // (A term too short for a trigram: one pass over users without LOWER(), see containsTerm.)
        const match = containsTerm(db, 'su.email', query.search);
        where.add(`v.user_id IN (SELECT su.id FROM users su WHERE ${match.sql})`, match.params);
        // The newest cases first (`page`'s probe), each tested against its own account by a scalar subquery:
        // PostgreSQL would turn EXISTS into a hash of every matching account, costed for all 300,000 cases rather
        // than the probe's 1,000.
        probe = {
          rows: probeRows(query.search),
          search: where.parts.length - 1,
          hit: where.bind(
            `COALESCE((SELECT ${match.sql} FROM users su WHERE su.id = v.user_id), FALSE)`,
            match.params,
          ),
        };
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
      {
        select: SELECT,
        from,
        where,
        order,
        countFrom,
        key: 'v.id',
        scan: !!query.search,
        // A term too short for a trigram (PostgreSQL): after the probe, the matching users in one pass, then their
        // cases (see `page`).
        materialize: probe !== undefined && shortTerm(query.search ?? ''),
        probe,
      },
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
      // The mail links back to this appliance (issue 25 item 12), where the result and the next steps are.
      await mailer.send({
        to: user.email,
        subject,
        text:
          `Hello ${user.full_name},\n\n${text}\n\n` +
          `See your verifications: ${config.publicUrl}/verification\n`,
      });
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
        notes: body.reviewer_notes ?? body.rejection_reason,
        reason: body.reviewer_notes ? body.rejection_reason : undefined,
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
   * Claims the document for this account before an automatic approval, as the user flow does in the same step
   * (the primary key on the fingerprint makes it race-safe). False when another account holds it; `inserted`
   * says whether this call created the claim (to take it back if the approval then fails).
   */
  async function claimDocument(
    fingerprint: string,
    userId: string,
    verificationId: string,
  ): Promise<{ ok: boolean; inserted: boolean }> {
    const [held] = await db.read<{ user_id: string }>(
      'SELECT user_id FROM document_claims WHERE fingerprint = :fingerprint',
      { fingerprint },
    );
    if (held) return { ok: held.user_id === userId, inserted: false };
    try {
      await db.sequelize.query(
        'INSERT INTO document_claims (fingerprint, user_id, verification_id, created_at) VALUES (:fingerprint, :userId, :verificationId, :now)',
        { replacements: { fingerprint, userId, verificationId, now: clock.now() } },
      );
      return { ok: true, inserted: true };
    } catch (error) {
      if (!(error instanceof UniqueConstraintError)) throw error;
      const [winner] = await db.read<{ user_id: string }>(
        'SELECT user_id FROM document_claims WHERE fingerprint = :fingerprint',
        { fingerprint },
      );
      return { ok: winner?.user_id === userId, inserted: false };
    }
  }

  /**
   * Runs the document analysis again on the media kept (encrypted) for the case, with today's models and clock,
   * and decides it exactly as the user flow decides a fresh upload (verification/document-decision.ts): the MRZ
   * reading AND the holder check on the kept document and live video (portrait found, liveness, face match, printed fields, the
   * document not proving another account). Without a kept video — or with any binding problem — a clean reading
   * still goes to a person, never to an automatic approval. The case returns to the queue with the new analysis; a
   * clean, bound result is then decided through the same review path as a person's decision (so the facts, the
   * media deletion and the audit follow the same rules).
   */
  async function retrigger(
    id: string,
    body: v.InferOutput<typeof adminRetriggerVerificationBody>,
    who: AdminActor,
  ) {
    const row = await Verification.findByPk(id);
    if (!row) throw notFound('Verification not found');
    const owner = await User.findByPk(row.user_id, { attributes: ['id', 'deleted_at'] });
    if (isWithdrawn(row) || !owner || owner.deleted_at) throw withdrawnCase();
    const startedAs = row.status;
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
    // The user flow keeps the document first and the live challenge video (when one was sent) after it.
    const document = media.find((item) => !item.contentType.startsWith('video/'));
    const video = media.find((item) => item.contentType.startsWith('video/')) ?? null;
    if (!document) {
      throw new AppError(
        409,
        'verification.media_gone',
        'The media of this verification is no longer kept; ask the user to verify again',
      );
    }
    const engine = requireEngine(deps.vision, 'Document analysis');
    const threshold = (row.age_threshold ?? 18) as AgeThreshold;
    const [reading, holder] = await Promise.all([
      runAnalysis(() => engine.readDocument(document.bytes, document.contentType)),
      video
        ? runAnalysis(() => engine.checkHolder(document.bytes, video.bytes, { thresholds: [threshold] }))
        : Promise.resolve(null),
    ]);
    const now = clock.now();
    const previous = row.document_analysis;
    const analysis = documentAnalysis(
      reading,
      { documentType: (previous?.document_type ?? 'other') as DocumentType, threshold },
      now,
    );
    const verificationType = row.verification_type === 'identity' ? 'identity' : 'age';
    const fingerprint = reading.document_key
      ? documentFingerprint(config.masterKey, reading.document_key)
      : null;
    const binding: HolderBinding = {
      holder,
      otherAccounts: fingerprint ? await otherAccounts(db, row.user_id, fingerprint) : 0,
    };
    let outcome = decideDocument(analysis, reading, verificationType, binding);
    let claim: { ok: boolean; inserted: boolean } | null = null;
    if (outcome.status === 'approved' && fingerprint) {
      claim = await claimDocument(fingerprint, row.user_id, row.id);
      if (!claim.ok) {
        // Another account claimed this document meanwhile: a person decides, as in the user flow.
        binding.otherAccounts = Math.max(1, binding.otherAccounts);
        outcome = decideDocument(analysis, reading, verificationType, binding);
      }
    }
    const problems = bindingProblems(reading, binding);
    const note =
      `Retriggered by admin${body.force_reprocess ? ' (force reprocess)' : ''}: ${outcome.reason}` +
      (body.notes ? ` — ${body.notes}` : '');
    // Back to a pending case with the new analysis; then decided like a review when the reading is clean and bound.
    row.status = 'pending';
    row.needs_manual_review = true;
    row.document_analysis = { ...analysis, holder_binding: holderSummary(reading, binding, problems) };
    row.confidence_score = reading.confidence;
    row.subject_fingerprint = fingerprint ?? row.subject_fingerprint;
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
    row.changed('document_analysis', true);
    // Written only if, after the analysis, the case is as it was and its account still exists (withdraw.ts).
    await db.sequelize.transaction(async (transaction) => {
      const { row: current } = await lockOpenCase(db, row.id, transaction);
      if (current.status !== startedAs) {
        throw new AppError(
          409,
          'verification.changed',
          'This case changed while it was analysed; open it again',
        );
      }
      await row.save({ transaction });
    });
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
      try {
        return await approve(id, { reviewer_notes: `Automatic re-analysis: ${outcome.reason}` }, who);
      } catch (error) {
        // Not approved after all (decided meanwhile): the claim taken for it goes back.
        if (claim?.inserted && fingerprint) {
          await db.sequelize.query(
            'DELETE FROM document_claims WHERE fingerprint = :fingerprint AND verification_id = :id',
            { replacements: { fingerprint, id: row.id } },
          );
        }
        throw error;
      }
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
