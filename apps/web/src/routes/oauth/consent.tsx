import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { CONSENT_BASIC_INFO_REQUIRED, type InteractionDetails } from '@attestly/contracts';
import { interactionQueryOptions, oauthApi } from '../../api/oauth';
import { AuthCard } from '../../components/auth/auth-card';
import { ConsentButtons, ConsentHeader, useConsentAnswer } from '../../components/oauth/consent-answer';
import { WalletConsentForm } from '../../components/oauth/wallet-consent';
import { Button } from '../../components/ui/button';
import { FormError } from '../../components/ui/field';
import { QueryState } from '../../components/ui/query-state';
import { useDocumentTitle } from '../../lib/use-document-title';

/** Consent step of an authorization request (DESIGN.md §4; spec 01 §5 "Consent"). */
export const Route = createFileRoute('/oauth/consent')({
  validateSearch: v.object({ uid: v.optional(v.string(), '') }),
  // Defaults stay out of the address (issue 25 item 12: clean URLs, no empty `?return_to=`).
  search: { middlewares: [stripSearchParams({ uid: '' })] },
  component: OAuthConsentPage,
});

function OAuthConsentPage() {
  useDocumentTitle('Share your verification');
  const { uid } = Route.useSearch();
  const details = useQuery(interactionQueryOptions(uid));
  const navigate = useNavigate();
  // A registered wallet asking for credentials (issue 24 item 3) rather than a partner site.
  const wallet = !!details.data?.wallet;

  useEffect(() => {
    if (details.data?.prompt === 'login') void navigate({ to: '/oauth/login', search: { uid } });
  }, [details.data, navigate, uid]);

  return (
    <AuthCard
      title={wallet ? 'Add to your wallet' : 'Share your verification'}
      subtitle={
        wallet
          ? 'A wallet asks for proof of your age to keep and show.'
          : 'Choose what this site may learn about you.'
      }
    >
      <QueryState
        query={details}
        loadingLabel="Loading the request…"
        errorFallback="This sign-in request has expired."
      >
        {(interaction) =>
          interaction.wallet ? (
            <WalletConsentForm uid={uid} interaction={interaction} wallet={interaction.wallet} />
          ) : (
            <ConsentForm uid={uid} interaction={interaction} />
          )
        }
      </QueryState>
    </AuthCard>
  );
}

/**
 * Name and e-mail are optional (issue 15 item 4): shared with every partner they would link the user across partners,
 * so they start unticked unless the user shared them with this site before.
 */
const OPTIONAL_CONTACT_SCOPES = new Set(['profile', 'email']);

function ConsentForm({ uid, interaction }: { uid: string; interaction: InteractionDetails }) {
  const [selected, setSelected] = useState<Set<string>>(
    () =>
      new Set(
        interaction.scopes
          .filter((scope) => !OPTIONAL_CONTACT_SCOPES.has(scope.scope) || scope.previously_granted)
          .map((scope) => scope.scope),
      ),
  );
  const { failure, setFailure, busy, answer, goVerify } = useConsentAnswer(
    { uid, verifyUrl: interaction.verify_url },
    () => oauthApi.consent(uid, [...selected]),
    'Authorization failed',
  );
  const missingBasic = !selected.has('basic_info');
  // Facts the user is about to share without having proven them: the site would learn nothing about them (the claim
  // is left out or null, never a bare `false`), so verifying is the primary action (issue 10 item 8).
  const unprovenSelected = interaction.scopes.filter((scope) => !scope.proven && selected.has(scope.scope));
  const verifyFirst = !!interaction.verify_url && unprovenSelected.length > 0;

  function toggle(scope: string, on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
  }

  function decide(kind: 'allow' | 'deny') {
    // Said before anything is sent: the consent body's own check (@attestly/contracts) would refuse it.
    if (kind === 'allow' && missingBasic) setFailure(CONSENT_BASIC_INFO_REQUIRED);
    else void answer(kind);
  }

  return (
    <div className="space-y-5">
      <ConsentHeader interaction={interaction} />
      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-semibold text-slate-900">
          {interaction.site.site_name} asks for:
        </legend>
        {interaction.scopes.map((scope) => (
          <label key={scope.scope} className="flex items-start gap-3 rounded-lg border border-slate-200 p-3">
            <input
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 accent-indigo-700"
              checked={selected.has(scope.scope)}
              disabled={scope.required}
              onChange={(event) => toggle(scope.scope, event.target.checked)}
            />
            <span>
              <span className="block font-medium text-slate-900">
                {scope.title}
                {scope.required ? (
                  <span className="ml-2 text-xs font-normal text-slate-700">(required)</span>
                ) : OPTIONAL_CONTACT_SCOPES.has(scope.scope) ? (
                  <span className="ml-2 text-xs font-normal text-slate-700">(optional)</span>
                ) : null}
              </span>
              <span className="block text-sm text-slate-700">{scope.description}</span>
              {!scope.proven ? (
                <span className="mt-1 block text-sm text-amber-800">You have not verified this yet.</span>
              ) : null}
            </span>
          </label>
        ))}
      </fieldset>
      {verifyFirst ? (
        <div className="space-y-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <p>
            You have not proven {unprovenSelected.map((scope) => scope.title).join(', ')} yet. If you continue
            without it, {interaction.site.site_name} is told it is not proven. Verify now and you will come
            back to this page.
          </p>
          <Button className="w-full" onClick={goVerify} disabled={busy !== null}>
            Verify now
          </Button>
        </div>
      ) : null}
      <FormError message={failure} />
      <ConsentButtons
        busy={busy}
        onAnswer={decide}
        allow={{
          label: verifyFirst ? 'Allow without proof' : 'Allow',
          variant: verifyFirst ? 'secondary' : 'primary',
          disabled: selected.size === 0,
        }}
      />
    </div>
  );
}
