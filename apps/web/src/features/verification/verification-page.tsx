import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { VerificationSummary } from '@attestly/contracts';
import { userKeys } from '../../api/users';
import { verificationKeys, verificationStatusQueryOptions } from '../../api/verification';
import { Card } from '../../components/user/status-badge';
import { DocumentForm } from './document-form';
import { FacialCapture } from './facial-capture';
import { useCardCheck } from '../../lib/capabilities';
import { CardCheck } from './card-check';
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
/** Offered only where this installation has Stripe for it (lib/capabilities.ts). */
const CARD_METHOD = {
  key: 'card',
  label: 'Credit card',
  hint: 'Age 18+ from a credit card your issuer confirms',
} as const;
type MethodKey = (typeof METHODS)[number]['key'] | typeof CARD_METHOD.key;

const METHOD_LABELS: Record<VerificationSummary['verification_method'], string> = {
  facial_recognition: 'Camera',
  document: 'Document',
  credit_card: 'Credit card',
  ip_geolocation: 'Location',
};

/**
 * spec 01 §2 "Verification": a method picker and one form per method, then the recent attempts. The credit-card
 * check is offered only where the operator configured Stripe (an issuer confirms the card); `initial` opens a method
 * (a partner's `verify_url` carries `?method=credit_card`).
 */
export function VerificationMethods({ initial }: { initial?: string } = {}) {
  const queryClient = useQueryClient();
  const cardCheck = useCardCheck();
  const methods = cardCheck ? [...METHODS, CARD_METHOD] : METHODS;
  const [chosen, setMethod] = useState<MethodKey>(
    initial === 'credit_card' ? 'card' : initial === 'document' ? 'document' : 'facial',
  );
  // A link to the card check on a server without it falls back to the first method.
  const method: MethodKey = chosen === 'card' && !cardCheck ? 'facial' : chosen;
  const status = useQuery(verificationStatusQueryOptions());
  // The dashboard banner and the profile flags read the profile; both refresh after any attempt.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: userKeys.profile() });
    void queryClient.invalidateQueries({ queryKey: verificationKeys.status() });
  };
  const current = methods.find((item) => item.key === method) ?? METHODS[0];

  return (
    <>
      <Card title="Verify now">
        <div
          role="tablist"
          aria-label="Verification method"
          className={`grid gap-2 ${methods.length > 3 ? 'sm:grid-cols-2 lg:grid-cols-4' : 'sm:grid-cols-3'}`}
        >
          {methods.map((item) => (
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
          {method === 'facial' ? (
            <FacialCapture onDone={refresh} onUseDocument={() => setMethod('document')} />
          ) : null}
          {method === 'document' ? <DocumentForm onDone={refresh} /> : null}
          {method === 'location' ? <LocationCheck onDone={refresh} /> : null}
          {method === 'card' && cardCheck ? <CardCheck config={cardCheck} onDone={refresh} /> : null}
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
