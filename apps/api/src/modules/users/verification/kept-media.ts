import { Op } from 'sequelize';
import type { Deps } from '../../../core/deps';
import { mediaKey, openMedia } from '../../../lib/media-crypto';
import type { AuditService } from '../../shared/audit/service';

/** How often the media purge job runs (jobs.ts): kept media past its retention, or of decided cases. */
export const MEDIA_PURGE_INTERVAL_MS = 15 * 60_000;

/** What a kept file is sealed to (lib/media-crypto.ts): its case, so that a file cannot pass for another case's. */
export const mediaContext = (verificationId: string) => `verification-media:${verificationId}`;

/** The media kept (encrypted) for cases a person must review: the reviewer's viewing, and the purge. */
export function createKeptMedia({ db, clock, config, logger }: Deps, audit: AuditService) {
  const { Verification, VerificationMedia } = db.models;
  const key = mediaKey(config.masterKey);

  /** Decrypts the media kept for a pending case, for the reviewer's screen. */
  async function reviewMedia(
    verificationId: string,
  ): Promise<Array<{ id: string; contentType: string; bytes: Buffer }>> {
    const rows = await VerificationMedia.findAll({
      where: { verification_id: verificationId },
      order: [['created_at', 'ASC']],
    });
    return rows.map((media) => ({
      id: media.id,
      contentType: media.content_type,
      bytes: openMedia(
        key,
        { iv: media.iv, authTag: media.auth_tag, ciphertext: media.ciphertext },
        mediaContext(verificationId),
      ),
    }));
  }

  /**
   * The media purge job (DESIGN.md §5): deletes kept media whose case has been decided or whose retention limit
   * has passed. Idempotent and safe to run from every replica at once (plain deletes by condition).
   */
  async function purgeMedia(): Promise<number> {
    const now = clock.now();
    const decidedRows = await VerificationMedia.findAll({
      attributes: ['id'],
      where: {
        verification_id: {
          [Op.in]: db.sequelize.literal("(SELECT id FROM verifications WHERE status <> 'pending')"),
        },
      },
    });
    const decided =
      decidedRows.length > 0
        ? await VerificationMedia.destroy({ where: { id: decidedRows.map((media) => media.id) } })
        : 0;
    const expiredRows = await VerificationMedia.findAll({
      attributes: ['id', 'verification_id'],
      where: { purge_after: { [Op.lte]: now } },
    });
    let expired = 0;
    const purgedCases = new Set<string>();
    // One delete per file, counted by affected rows: when several replicas run this job at once, only the one whose
    // delete removed the file notes it on the case (a note per file found would be written once per replica).
    for (const media of expiredRows) {
      const removed = await VerificationMedia.destroy({ where: { id: media.id } });
      if (removed === 0) continue;
      expired += removed;
      purgedCases.add(media.verification_id);
    }
    if (purgedCases.size > 0) {
      for (const verificationId of purgedCases) {
        const row = await Verification.findByPk(verificationId);
        if (!row) continue;
        row.review_notes = [
          ...row.review_notes,
          {
            timestamp: now.toISOString(),
            note: 'Media deleted unreviewed: the retention limit passed',
            author: 'system',
          },
        ];
        row.changed('review_notes', true);
        await row.save();
      }
    }
    const purged = decided + expired;
    if (purged > 0) {
      logger.info({ purged, decided, expired }, 'verification media purged');
      await audit.recordSafely({ event: 'verification.media_purged', details: { purged, decided, expired } });
    }
    return purged;
  }

  return { reviewMedia, purgeMedia };
}
