import type * as v from 'valibot';
import type {
  adminApproveVerificationBody,
  adminRejectVerificationBody,
  adminRetriggerVerificationBody,
} from '@attestly/contracts';
import { type AgeThreshold, type DocumentType } from '@attestly/contracts';
import { UniqueConstraintError } from 'sequelize';
import type { Deps } from '../../../core/deps';
import { AppError, notFound } from '../../../errors';
import type { AuditService } from '../../shared/audit/service';
import {
  assessDocument,
  claimedElsewhere,
  recordedAnalysis,
} from '../../users/verification/document-decision';
import type { VerificationModule } from '../../users/verification/index';
import { requireEngine, runAnalysis } from '../../users/verification/vision';
import { isWithdrawn, lockOpenCase, withdrawnCase } from '../../users/verification/withdraw';
import { type AdminActor } from '../common';

/** The reviewer's decisions that a re-analysis ends in, and the case as the back office shows it. */
interface Decisions<Detail> {
  approve(
    id: string,
    body: v.InferOutput<typeof adminApproveVerificationBody>,
    who: AdminActor,
  ): Promise<Detail>;
  reject(
    id: string,
    body: v.InferOutput<typeof adminRejectVerificationBody>,
    who: AdminActor,
  ): Promise<Detail>;
  detail(id: string): Promise<Detail>;
}

/** Retrigger (spec 02 "Verifications"): a document case analysed again and decided like a fresh upload. */
export function createRetrigger<Detail>(
  deps: Deps,
  { audit, verifications }: { audit: AuditService; verifications: VerificationModule },
  { approve, reject, detail }: Decisions<Detail>,
) {
  const { db, clock } = deps;
  const { Verification, User } = db.models;

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
    const verificationType = row.verification_type === 'identity' ? 'identity' : 'age';
    let assessed = await assessDocument(
      deps,
      {
        userId: row.user_id,
        reading,
        holder,
        documentType: (previous?.document_type ?? 'other') as DocumentType,
        threshold,
        verificationType,
      },
      now,
    );
    let claim: { ok: boolean; inserted: boolean } | null = null;
    if (assessed.outcome.status === 'approved' && assessed.fingerprint) {
      claim = await claimDocument(assessed.fingerprint, row.user_id, row.id);
      // Another account claimed this document meanwhile: a person decides, as in the user flow.
      if (!claim.ok) assessed = claimedElsewhere(assessed);
    }
    const { analysis, fingerprint, outcome } = assessed;
    const note =
      `Retriggered by admin${body.force_reprocess ? ' (force reprocess)' : ''}: ${outcome.reason}` +
      (body.notes ? ` — ${body.notes}` : '');
    // Back to a pending case with the new analysis; then decided like a review when the reading is clean and bound.
    row.status = 'pending';
    row.needs_manual_review = true;
    row.document_analysis = recordedAnalysis(assessed);
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
      ...who,
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

  return retrigger;
}
