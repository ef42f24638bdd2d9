import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { VerificationSummary } from '@attestly/contracts';
import { userKeys } from '../../api/users';
import { verificationKeys, verificationStatusQueryOptions } from '../../api/verification';
import { Card } from '../../components/user/status-badge';
import { DocumentForm } from './document-form';
import { FacialCapture } from './facial-capture';
import { LocationCheck } from './location-check';

export const METHODS = [
  { key: 'facial', label: 'Camera', hint: 'Age from a short video of your face' },
  {
    key: 'document',
    label: 'Document',
    hint: 'Age or identity from a passport or ID card and a short video',
  },
  { key: 'location', label: 'Location', hint: 'Country and region of your connection' },
] as const;
type MethodKey = (typeof METHODS)[number]['key'];

const METHOD_LABELS: Record<VerificationSummary['verification_method'], string> = {
  facial_recognition: 'Camera',
  document: 'Document',
  credit_card: 'Credit card',
  ip_geolocation: 'Location',
};

/**
 * spec 01 §2 "Verification": a method picker and one form per method, then the recent attempts. Card checks are not
 * offered: without an issuer check a card number proves nothing (issue 14).
 */
export function VerificationMethods() {
  const queryClient = useQueryClient();
  const [method, setMethod] = useState<MethodKey>('facial');
  const status = useQuery(verificationStatusQueryOptions());
  // The dashboard banner and the profile flags read the profile; both refresh after any attempt.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: userKeys.profile() });
    void queryClient.invalidateQueries({ queryKey: verificationKeys.status() });
  };
  const current = METHODS.find((item) => item.key === method) ?? METHODS[0];

  return (
    <>
      <Card title="Verify now">
        <div role="tablist" aria-label="Verification method" className="grid gap-2 sm:grid-cols-3">
          {METHODS.map((item) => (
            <button
              key={item.key}
              role="tab"
              type="button"
              id={`method-${item.key}`}
              aria-selected={method === item.key}
              aria-controls="method-panel"
              onClick={() => setMethod(item.key)}
              className={`rounded-lg border p-3 text-left text-sm ${
                method === item.key
                  ? 'border-indigo-600 bg-indigo-50 text-indigo-900'
                  : 'border-slate-200 text-slate-800 hover:bg-slate-50'
              }`}
            >
              <span className="block font-semibold">{item.label}</span>
              <span className="block text-xs text-slate-700">{item.hint}</span>
            </button>
          ))}
        </div>
        <div id="method-panel" role="tabpanel" aria-labelledby={`method-${current.key}`} className="mt-6">
          {method === 'facial' ? <FacialCapture onDone={refresh} /> : null}
          {method === 'document' ? <DocumentForm onDone={refresh} /> : null}
          {method === 'location' ? <LocationCheck onDone={refresh} /> : null}
        </div>
      </Card>

      <Card title="Recent verifications">
        {status.isPending ? (
          <p className="text-sm text-slate-700">Loading…</p>
        ) : status.isError ? (
          <p className="text-sm text-red-800">Failed to load your verifications</p>
        ) : status.data.verifications.length === 0 ? (
          <p className="text-sm text-slate-700">No verifications yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {status.data.verifications.map((item) => (
              <li key={item.id} className="py-3 text-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium text-slate-900">
                    {METHOD_LABELS[item.verification_method]} · {item.verification_type}
                    {item.age_threshold ? ` ${item.age_threshold}+` : ''}
                  </span>
                  <span className="text-xs font-semibold text-slate-800 uppercase">
                    {item.needs_manual_review ? 'in review' : item.status}
                  </span>
                </div>
                {item.message ? <p className="mt-1 text-slate-700">{item.message}</p> : null}
                <p className="mt-1 text-xs text-slate-600">{new Date(item.submitted_at).toLocaleString()}</p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
