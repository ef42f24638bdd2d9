import { useEffect, useRef, useState } from 'react';
import type { WalletPresentation } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { svgImage, walletApi } from '../../api/wallet';
import { Button } from '../ui/button';
import { FormError } from '../ui/field';

const POLL_MS = 2000;

/**
 * "Use a wallet" on the sign-in screen of a site asking for an age (issue 24 item 5): a QR code for a wallet on
 * another device (this page waits for its answer) or a link for a wallet on this one (which comes back here with a
 * response code). No Attestly account is needed: the site learns only the age.
 */
export function UseAWallet({
  uid,
  responseCode,
  first = false,
}: {
  uid: string;
  responseCode: string | null;
  /** The site asked for the wallet path: this comes before the password form, worded as the main way. */
  first?: boolean;
}) {
  const [request, setRequest] = useState<WalletPresentation | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const finishing = useRef(false);

  async function finish(code: string | null) {
    if (finishing.current) return;
    finishing.current = true;
    try {
      window.location.assign((await walletApi.finishPresentation(uid, code)).redirect_to);
    } catch (error) {
      finishing.current = false;
      setRequest(null);
      setFailure(errorMessage(error, 'The wallet presentation was not accepted.'));
    }
  }

  // Same device: the wallet sent the browser back here with the response code.
  useEffect(() => {
    if (responseCode) void finish(responseCode);
  }, [responseCode]);

  // Another device: wait for the wallet's answer.
  useEffect(() => {
    if (!request) return;
    const controller = new AbortController();
    const timer = window.setInterval(() => {
      walletApi
        .presentationStatus(uid, controller.signal)
        .then((status) => {
          if (status.status === 'answered') void finish(null);
          else if (status.status !== 'pending') {
            setRequest(null);
            setFailure(status.detail ?? 'The request expired. Please try again.');
          }
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => {
      window.clearInterval(timer);
      controller.abort();
    };
  }, [request, uid]);

  async function start() {
    setFailure(null);
    setBusy(true);
    try {
      setRequest(await walletApi.startPresentation(uid));
    } catch (error) {
      setFailure(errorMessage(error, 'The wallet request could not be started.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="use-a-wallet" className="space-y-3 rounded-xl border border-slate-200 p-4">
      <h2 id="use-a-wallet" className="font-semibold text-slate-900">
        {first ? 'Use your wallet' : 'Use a wallet instead'}
      </h2>
      <p className="text-sm text-slate-700">
        Prove your age with an age credential from your digital identity wallet. The site learns only that you
        are old enough, under a one-time identifier.
      </p>
      <FormError message={failure} />
      {request ? (
        <div className="flex flex-col items-center gap-3">
          <img
            src={svgImage(request.qr_svg)}
            alt="QR code of the wallet request: scan it with your wallet"
            className="h-64 w-64 rounded-lg border border-slate-200 bg-white sm:h-80 sm:w-80"
          />
          <p className="text-sm text-slate-700" role="status">
            Waiting for your wallet…
          </p>
          <a href={request.wallet_url} className="font-semibold text-indigo-700 hover:text-indigo-900">
            Open the wallet on this device
          </a>
        </div>
      ) : (
        <Button
          variant={first ? 'primary' : 'secondary'}
          className="w-full"
          busy={busy}
          onClick={() => void start()}
        >
          Use a wallet
        </Button>
      )}
    </section>
  );
}
