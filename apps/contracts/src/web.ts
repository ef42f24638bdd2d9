import * as v from 'valibot';
import { currentPassword, newPassword, passwordConfirmation, passwordsMatch } from './fields';

/**
 * Forms that exist only in the browser: each adds a confirmation field to an API body, checked with the same
 * 'Passwords must match' rule as sign-up (spec 01 §5). The confirmation is never sent.
 */

export const resetPasswordForm = v.pipe(
  v.object({ new_password: newPassword('New password is required'), confirmPassword: passwordConfirmation }),
  passwordsMatch('new_password'),
);
export type ResetPasswordForm = v.InferInput<typeof resetPasswordForm>;

export const changePasswordForm = v.pipe(
  v.object({
    current_password: currentPassword('Current password is required'),
    new_password: newPassword('New password is required'),
    confirmPassword: passwordConfirmation,
  }),
  passwordsMatch('new_password'),
  v.forward(
    v.partialCheck(
      [['current_password'], ['new_password']],
      (input) => input.current_password !== input.new_password,
      'Choose a password different from the current one',
    ),
    ['new_password'],
  ),
);
export type ChangePasswordForm = v.InferInput<typeof changePasswordForm>;

export const deleteAccountForm = v.object({ password: currentPassword() });

/** The code texted to a phone (the API's verifyPhoneBody without the server's trimming). */
export const phoneCodeForm = v.object({
  code: v.pipe(
    v.string(),
    v.nonEmpty('Verification code is required'),
    v.regex(/^\d{6}$/, 'Enter the 6-digit code'),
  ),
});
