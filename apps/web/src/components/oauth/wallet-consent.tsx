import { useState } from 'react';
import type { InteractionDetails, WalletAuthorizationRequest } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { oauthApi } from '../../api/oauth';
import { rememberReturn } from '../../lib/oauth-return';
import { Button } from '../ui/button';
import { SiteHeader } from './site-header';

/**
 * Consent for a wallet the operator registered (issue 24 item 3, OpenID4VCI authorization code flow): which
 * credentials the wallet asks for and what they will state, or why none can be issued (the issuing policy, as for
 * "Add to wallet"). Deny, or a refused user's Cancel, sends the wallet access_denied.
 */
export function WalletConsentForm({
  uid,
  interaction,
  wallet,
}: {
  uid: string;
  interaction: InteractionDetails;
  wallet: WalletAuthorizationRequest;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<'allow' | 'deny' | null>(null);
  // A refusal from the server (the policy changed since the screen opened) replaces the screen's own.
  const refused = failure ?? wallet.refused;

  async function answer(kind: 'allow' | 'deny') {
    setFailure(null);
    setBusy(kind);
    try {
      const { redirect_to: redirectTo } =
        kind === 'allow' ? await oauthApi.walletConsent(uid) : await oauthApi.abort(uid);
      window.location.assign(redirectTo);
    } catch (error) {
      setBusy(null);
      setFailure(errorMessage(error, 'The credentials could not be issued'));
    }
  }

  const goVerify = () => {
    rememberReturn(`/oauth/consent?uid=${encodeURIComponent(uid)}`);
    window.location.assign(interaction.verify_url as string);
  };
  const ages = Object.entries(wallet.age_over ?? {});

  return (
    <div className="space-y-5">
      <SiteHeader site={interaction.site} />
      {interaction.user ? (
        <p className="text-sm text-slate-700">
          Signed in as <span className="font-semibold text-slate-900">{interaction.user.email}</span>
        </p>
      ) : null}
      <div className="space-y-2">
        <p className="text-sm font-semibold text-slate-900">
          {interaction.site.site_name} asks for proof of your age to keep in the wallet:
        </p>
        <ul className="space-y-2">
          {wallet.credentials.map((credential) => (
            <li key={credential.id} className="rounded-lg border border-slate-200 p-3 text-sm text-slate-900">
              {credential.name}
            </li>
          ))}
        </ul>
      </div>
      {ages.length && !refused ? (
        <div className="space-y-1 text-sm text-slate-700" data-testid="wallet-claims">
          <p>
            They will state only:{' '}
            {ages.map(([age, value]) => `${value ? 'over' : 'not over'} ${age}`).join(', ')}. No name, birth
            date or account — sites you show them to cannot link your visits.
          </p>
          {wallet.valid_until ? <p>Valid until {wallet.valid_until}.</p> : null}
        </div>
      ) : null}
      {refused ? (
        <div
          role="alert"
          className="space-y-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <p>{refused}</p>
          {interaction.verify_url ? (
            <Button className="w-full" onClick={goVerify} disabled={busy !== null}>
              Verify now
            </Button>
          ) : null}
        </div>
      ) : null}
      <div className="flex gap-3">
        <Button
          variant="secondary"
          className="flex-1"
          busy={busy === 'deny'}
          disabled={busy !== null}
          onClick={() => void answer('deny')}
        >
          {refused ? 'Cancel' : 'Deny'}
        </Button>
        {refused ? null : (
          <Button
            className="flex-1"
            busy={busy === 'allow'}
            disabled={busy !== null}
            onClick={() => void answer('allow')}
          >
            Add to wallet
          </Button>
        )}
      </div>
    </div>
  );
}
