import type { UseFormRegisterReturn } from 'react-hook-form';
import { PARTNER_INVITATION_DAYS } from '@attestly/contracts';

/**
 * How an account created in the back office gets its first password (issue 25 item 4): shown once here, or chosen by
 * its owner through an invitation mail.
 */
export function SignInChoice({
  who,
  mailedTo,
  registration,
}: {
  who: 'person' | 'partner';
  /** Where the invitation goes, as the sentence names it ("" for the account's own address). */
  mailedTo: string;
  registration: UseFormRegisterReturn;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">How the {who} signs in</legend>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="radio" className="mt-1 size-4" value="show_password" {...registration} />
        <span>Show a one-time password now, to copy and hand over</span>
      </label>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="radio" className="mt-1 size-4" value="send_invitation" {...registration} />
        <span>
          Send an invitation mail{mailedTo}, with a link to choose a password (valid {PARTNER_INVITATION_DAYS}{' '}
          days)
        </span>
      </label>
    </fieldset>
  );
}
