import type * as v from 'valibot';
import type {
  adminApproveVerificationBody,
  adminRejectVerificationBody,
  adminVerificationListQuery,
} from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { notFound } from '../../../errors';
import type { AuditService, Severity } from '../../shared/audit/service';
import type { VerificationModule } from '../../users/verification/index';
import { type AdminActor } from '../common';
import { Where, page, probeRows, type PageQuery } from '../../shared/paging/page';
import { containsTerm, shortTerm } from '../../shared/paging/search';
import { createRetrigger } from './retrigger';
import { presentAdminVerification, presentAdminVerificationDetail, type VerificationRow } from './presenters';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The listed columns. `document_media` counts the kept documents (not the live videos): what Retrigger re-reads.
 * `holder_bound` is the document analysis' holder check (users/verification/document-decision.ts), read from its
 * JSON.
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

  /** A reviewer's decision, audited on the case's user and partner. */
  function recordDecision(
    row: { id: string; user_id: string; partner_id: string | null; verification_type: string },
    who: AdminActor,
    event: 'verification_approved' | 'verification_rejected',
    details: Record<string, unknown>,
    severity?: Severity,
  ): Promise<void> {
    return audit.recordSafely({
      event,
      severity,
      userId: row.user_id,
      partnerId: row.partner_id,
      ...who,
      details: { verification_id: row.id, verification_type: row.verification_type, ...details },
    });
  }

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
    await recordDecision(row, who, 'verification_approved', {
      confidence_override: body.confidence_override ?? null,
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
    await recordDecision(
      row,
      who,
      'verification_rejected',
      { rejection_reason: body.rejection_reason },
      'warning',
    );
    await tellUser(
      row.user_id,
      'Your verification was not approved',
      `A reviewer could not approve your ${KIND[row.verification_type] ?? 'verification'}.\n\n` +
        `Reason: ${body.rejection_reason}\n\nYou can verify again with another method or a clearer document.`,
    );
    return detail(row.id);
  }

  const retrigger = createRetrigger(deps, { audit, verifications }, { approve, reject, detail });

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
      ...who,
      details: { verification_id: id, media_id: mediaId, content_type: found.contentType },
    });
    return found;
  }

  return { list, detail, approve, reject, retrigger, media };
}
export type AdminVerificationService = ReturnType<typeof createAdminVerificationService>;
