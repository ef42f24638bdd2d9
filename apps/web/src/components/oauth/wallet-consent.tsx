import type { InteractionDetails, WalletAuthorizationRequest } from '@attestly/contracts';
import { oauthApi } from '../../api/oauth';
import { Button } from '../ui/button';
import { ConsentButtons, ConsentHeader, useConsentAnswer } from './consent-answer';

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
  const { failure, busy, answer, goVerify } = useConsentAnswer(
    { uid, verifyUrl: interaction.verify_url },
    () => oauthApi.walletConsent(uid),
    'The credentials could not be issued',
  );
  // A refusal from the server (the policy changed since the screen opened) replaces the screen's own.
  const refused = failure ?? wallet.refused;

  const ages = Object.entries(wallet.age_over ?? {});

  return (
    <div className="space-y-5">
      <ConsentHeader interaction={interaction} />
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
      <ConsentButtons
        busy={busy}
        onAnswer={(kind) => void answer(kind)}
        denyLabel={refused ? 'Cancel' : 'Deny'}
        allow={refused ? undefined : { label: 'Add to wallet' }}
      />
    </div>
  );
}
