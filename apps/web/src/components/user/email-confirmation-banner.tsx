import { Button } from '../ui/button';
import { useSendEmailVerification } from './use-send-email-verification';

/** Until the address is confirmed, the dashboard says where the link went and offers a new one. */
export function EmailConfirmationBanner({ email }: { email: string }) {
  const resend = useSendEmailVerification(email);
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 p-5 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-semibold text-amber-950">Confirm your e-mail address</p>
        <p className="text-sm text-amber-950">
          We sent a verification link to <strong className="break-all">{email}</strong>. Open it to confirm
          that the address is yours.
        </p>
      </div>
      <Button
        variant="secondary"
        className="shrink-0"
        busy={resend.isPending}
        onClick={() => resend.mutate()}
      >
        {resend.isSuccess ? 'Send again' : 'Resend the link'}
      </Button>
    </div>
  );
}
