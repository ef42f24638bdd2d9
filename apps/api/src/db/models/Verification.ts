import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { flag, required, stampedTable, uuidKey } from './columns';
import type {
  ReviewerDocumentAnalysis,
  VerificationMethod,
  VerificationStatus,
  VerificationType,
} from '@attestly/contracts';

export interface ReviewNote {
  timestamp: string;
  note: string;
  /** Who wrote it: 'system' or an admin user id. */
  author?: string;
}

/**
 * One verification attempt (DESIGN.md §5, spec 02 §3 "Verification"). A user's proven facts on `users` derive from
 * approved rows. `subject_fingerprint` is a keyed HMAC of what was checked (e.g. a card number), never the value.
 */
export class Verification extends Model<
  InferAttributes<Verification>,
  InferCreationAttributes<Verification>
> {
  declare id: CreationOptional<string>;
  declare user_id: string;
  declare verification_type: VerificationType;
  declare verification_method: VerificationMethod;
  declare status: VerificationStatus;
  declare confidence_score: number | null;
  declare age_threshold: number | null;
  declare needs_manual_review: CreationOptional<boolean>;
  /** The message the user was shown. */
  declare message: string | null;
  declare result_details: CreationOptional<Record<string, unknown>>;
  /** The reading with what only reviewers see (the document's reuse on other accounts). */
  declare document_analysis: ReviewerDocumentAnalysis | null;
  declare review_notes: CreationOptional<ReviewNote[]>;
  declare subject_fingerprint: string | null;
  /** Set when a partner's consent flow asked for the check (statistics per partner and site). */
  declare partner_id: string | null;
  declare site_id: string | null;
  /** Made through a sandbox API key or a sandbox site: marked in results, never counted toward quotas or stats. */
  declare sandbox: CreationOptional<boolean>;
  declare reviewed_at: Date | null;
  declare reviewed_by: string | null;
  /** When the fact this row proved stops counting (approved rows only). */
  declare expires_at: Date | null;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof Verification {
    Verification.init(
      {
        id: uuidKey(),
        user_id: required(DataTypes.UUID),
        verification_type: required(DataTypes.STRING(16)),
        verification_method: required(DataTypes.STRING(32)),
        status: required(DataTypes.STRING(16)),
        confidence_score: DataTypes.DOUBLE,
        age_threshold: DataTypes.INTEGER,
        needs_manual_review: flag(false),
        message: DataTypes.STRING(500),
        result_details: { type: DataTypes.JSON, allowNull: false, defaultValue: {} },
        document_analysis: DataTypes.JSON,
        review_notes: { type: DataTypes.JSON, allowNull: false, defaultValue: [] },
        subject_fingerprint: DataTypes.STRING(64),
        partner_id: DataTypes.STRING(64),
        site_id: DataTypes.STRING(64),
        sandbox: flag(false),
        reviewed_at: DataTypes.DATE,
        reviewed_by: DataTypes.STRING(64),
        expires_at: DataTypes.DATE,
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      stampedTable(sequelize, 'verifications'),
    );
    return Verification;
  }
}
