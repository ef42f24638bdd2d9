import { useState } from 'react';
import type { WalletOffer } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { svgImage, walletApi } from '../../api/wallet';
import { Button, buttonClass } from '../ui/button';
import { FormError } from '../ui/field';
import { Card } from './status-badge';

const ageWords = (ages: Record<string, boolean>) =>
  Object.entries(ages)
    .filter(([, value]) => value)
    .map(([age]) => age)
    .join(', ');

/**
 * "Add to wallet" (issue 24 item 2): a one-time OpenID4VCI offer of the user's proof of age. The QR code (with a
 * six-digit code to type into the wallet) is for a wallet on another device; the link opens a wallet on this one.
 */
export function AddToWallet() {
  const [offer, setOffer] = useState<WalletOffer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<'qr' | 'here' | null>(null);

  async function create(sameDevice: boolean) {
    setFailure(null);
    setBusy(sameDevice ? 'here' : 'qr');
    try {
      const created = await walletApi.createOffer(sameDevice);
      if (sameDevice) window.location.assign(created.offer_url);
      else setOffer(created);
    } catch (error) {
      setFailure(errorMessage(error, 'The offer could not be created. Please try again.'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Card title="Add to wallet">
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          Keep a proof of your age in your digital identity wallet and show sites only that you are over an
          age — not your name, not your birth date. Each credential is used once and nobody can link your
          visits.
        </p>
        <FormError message={failure} />
        {offer ? (
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
            <img
              src={svgImage(offer.qr_svg)}
              alt="QR code of the credential offer: scan it with your wallet"
              className="h-56 w-56 shrink-0 rounded-lg border border-slate-200 bg-white"
            />
            <div className="space-y-3 text-sm text-slate-800">
              <p>Scan the code with your wallet app, then type this code when it asks:</p>
              <p
                className="font-mono text-3xl font-bold tracking-widest text-slate-900"
                aria-label="Transaction code"
              >
                {offer.tx_code}
              </p>
              <p>
                Your wallet receives a batch of credentials stating that you are at least{' '}
                {ageWords(offer.age_over)} years old, valid until {offer.credentials_valid_until}.
              </p>
              <p className="text-slate-700">This offer works once and expires in ten minutes.</p>
              <button
                type="button"
                className="font-semibold text-indigo-700 hover:text-indigo-900"
                onClick={() => setOffer(null)}
              >
                Done
              </button>
            </div>
          </div>
        ) : (
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button busy={busy === 'qr'} onClick={() => void create(false)}>
              Show a QR code for my wallet
            </Button>
            <button
              type="button"
              className={buttonClass('secondary')}
              disabled={busy !== null}
              onClick={() => void create(true)}
            >
              Open my wallet on this device
            </button>
          </div>
        )}
      </div>
    </Card>
  );
}
