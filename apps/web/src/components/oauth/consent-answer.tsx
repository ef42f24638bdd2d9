import { useState } from 'react';
import type { InteractionDetails } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { oauthApi } from '../../api/oauth';
import { rememberReturn } from '../../lib/oauth-return';
import { Button, type ButtonVariant } from '../ui/button';
import { SiteHeader } from './site-header';

type Answer = 'allow' | 'deny';

/**
 * Allow or Deny on a consent screen (a site's, or a registered wallet's): the browser follows the provider's
 * redirect; a failure is kept for the screen to show, and both buttons wait while one answer is on its way.
 */
export function useConsentAnswer(
  interaction: { uid: string; verifyUrl: string | null | undefined },
  allow: () => Promise<{ redirect_to: string }>,
  failedMessage: string,
) {
  const { uid, verifyUrl } = interaction;
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<Answer | null>(null);
  async function answer(kind: Answer) {
    setFailure(null);
    setBusy(kind);
    try {
      const { redirect_to: redirectTo } = kind === 'allow' ? await allow() : await oauthApi.abort(uid);
      window.location.assign(redirectTo);
    } catch (error) {
      setBusy(null);
      setFailure(errorMessage(error, failedMessage));
    }
  }
  // Verifying first comes back to this consent screen (lib/oauth-return.ts); only offered with a verify_url.
  const goVerify = () => {
    rememberReturn(`/oauth/consent?uid=${encodeURIComponent(uid)}`);
    window.location.assign(verifyUrl as string);
  };
  return { failure, setFailure, busy, answer, goVerify };
}

/** Who asks (the site), and which account would answer. */
export function ConsentHeader({ interaction }: { interaction: InteractionDetails }) {
  return (
    <>
      <SiteHeader site={interaction.site} />
      {interaction.user ? (
        <p className="text-sm text-slate-700">
          Signed in as <span className="font-semibold text-slate-900">{interaction.user.email}</span>
        </p>
      ) : null}
    </>
  );
}

/** Deny, then the allowing button (left out where nothing can be allowed). */
export function ConsentButtons({
  busy,
  onAnswer,
  denyLabel = 'Deny',
  allow,
}: {
  busy: Answer | null;
  onAnswer(kind: Answer): void;
  denyLabel?: string;
  allow?: { label: string; variant?: ButtonVariant; disabled?: boolean };
}) {
  return (
    <div className="flex gap-3">
      <Button
        variant="secondary"
        className="flex-1"
        busy={busy === 'deny'}
        disabled={busy !== null}
        onClick={() => onAnswer('deny')}
      >
        {denyLabel}
      </Button>
      {allow ? (
        <Button
          className="flex-1"
          variant={allow.variant}
          busy={busy === 'allow'}
          disabled={busy !== null || allow.disabled}
          onClick={() => onAnswer('allow')}
        >
          {allow.label}
        </Button>
      ) : null}
    </div>
  );
}
