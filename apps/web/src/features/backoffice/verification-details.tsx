import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { adminVerificationQueryOptions } from '../../api/admin';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { QueryState } from '../../components/ui/query-state';
import { CopyableId } from './copyable-id';
import { formatConfidence, formatDateTime } from './format';
import { MediaViewer } from './media-viewer';
import { Facts, StatusBadge } from './ui';
import { VerificationActionForm, type VerificationAction } from './verification-actions';

const yesNo = (value: unknown): ReactNode =>
  value === true
    ? 'Yes'
    : value === false
      ? 'No'
      : value === null || value === undefined
        ? 'Not checked'
        : String(value);

const text = (value: unknown): ReactNode =>
  value === null || value === undefined || value === '' ? '—' : String(value);

/**
 * spec 02 §2 "Details modal" of the review queue, with the kept media (photo, video or document) and, under them,
 * the decision: Approve and Reject for a pending case, Retrigger where the server can run the analysis again
 * (`can_retrigger`). `action` opens one of the forms at once (the row's buttons do that).
 */
export function VerificationDetailsDialog({
  id,
  action,
  onAction,
  onClose,
}: {
  id: string | null;
  action: VerificationAction | null;
  onAction(action: VerificationAction | null): void;
  onClose(): void;
}) {
  const detail = useQuery({ ...adminVerificationQueryOptions(id ?? ''), enabled: id !== null });
  return (
    <Dialog
      open={id !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Verification details"
      size="xl"
    >
      <QueryState
        query={detail}
        loadingLabel="Loading verification…"
        errorFallback="Failed to load verification details"
      >
        {(item) => {
          const analysis = item.document_analysis;
          return (
            <div className="space-y-6">
              <Facts
                items={[
                  ['ID', <CopyableId key="id" id={item.id} label="verification ID" />],
                  ['User ID', <CopyableId key="user" id={item.user_id} label="user ID" />],
                  ['User e-mail', text(item.user_email)],
                  ['Type', item.verification_type],
                  ['Method', item.verification_method.replace(/_/g, ' ')],
                  ['Status', <StatusBadge key="status" status={item.status} />],
                  ['Age threshold', text(item.age_threshold)],
                  [
                    'Confidence',
                    item.confidence_score === null && item.confidence_note
                      ? item.confidence_note
                      : [formatConfidence(item.confidence_score), item.confidence_note]
                          .filter(Boolean)
                          .join(' — '),
                  ],
                  ['Needs manual review', yesNo(item.needs_manual_review)],
                  ['Created', formatDateTime(item.submitted_at, '—')],
                  ['Updated', formatDateTime(item.reviewed_at, '—')],
                  ['Message', text(item.message)],
                ]}
              />
              {analysis ? (
                <section aria-labelledby="analysis-heading" className="space-y-3">
                  <h3 id="analysis-heading" className="font-semibold text-slate-900">
                    Document analysis
                  </h3>
                  <Facts
                    items={[
                      ['Document type', text(analysis.document_type)],
                      ['Country detected', text(analysis.country_detected)],
                      ['State detected', text(analysis.state_detected)],
                      ['Format valid', yesNo(analysis.format_valid)],
                      ['Not expired', yesNo(analysis.not_expired)],
                      ['Authentic', yesNo(analysis.authentic)],
                      ['Date of birth', text(analysis.date_of_birth)],
                      ['Calculated age', text(analysis.calculated_age)],
                      ['Threshold met', yesNo(analysis.threshold_met)],
                    ]}
                  />
                  {Array.isArray(analysis.reasons) && analysis.reasons.length > 0 ? (
                    <ul className="list-disc pl-5 text-sm text-slate-800">
                      {(analysis.reasons as unknown[]).map((reason) => (
                        <li key={String(reason)}>{String(reason)}</li>
                      ))}
                    </ul>
                  ) : null}
                </section>
              ) : null}
              <section aria-labelledby="media-heading" className="space-y-3">
                <h3 id="media-heading" className="font-semibold text-slate-900">
                  Submitted media
                </h3>
                {item.media.length === 0 ? (
                  <p className="text-sm text-slate-700">No media is kept for this verification.</p>
                ) : (
                  item.media.map((media, index) => <MediaViewer key={media.id} media={media} index={index} />)
                )}
              </section>
              <section aria-labelledby="notes-heading" className="space-y-2">
                <h3 id="notes-heading" className="font-semibold text-slate-900">
                  Review notes
                </h3>
                {item.review_notes.length === 0 ? (
                  <p className="text-sm text-slate-700">No review notes yet.</p>
                ) : (
                  <ol className="space-y-2 text-sm">
                    {item.review_notes.map((note, index) => (
                      <li key={`${note.timestamp}-${index}`} className="rounded-lg bg-slate-50 p-2">
                        <p className="text-xs text-slate-700">{formatDateTime(note.timestamp, '')}</p>
                        <p className="whitespace-pre-wrap text-slate-900">{note.note}</p>
                      </li>
                    ))}
                  </ol>
                )}
              </section>
              {action ? (
                <VerificationActionForm
                  key={action}
                  action={action}
                  verificationId={item.id}
                  onDone={onClose}
                  onCancel={() => onAction(null)}
                />
              ) : item.status === 'pending' || item.can_retrigger ? (
                <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-4">
                  {item.status === 'pending' ? (
                    <>
                      <Button onClick={() => onAction('approve')}>Approve</Button>
                      <Button variant="danger" onClick={() => onAction('reject')}>
                        Reject
                      </Button>
                    </>
                  ) : null}
                  {item.can_retrigger ? (
                    <Button variant="secondary" onClick={() => onAction('retrigger')}>
                      Retrigger
                    </Button>
                  ) : null}
                </div>
              ) : null}
            </div>
          );
        }}
      </QueryState>
    </Dialog>
  );
}
