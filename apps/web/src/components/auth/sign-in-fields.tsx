import type { ReactNode } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { LoginBody } from '@attestly/contracts';
import { fieldProps } from '../forms/field-props';
import { EmailField, PasswordField, RememberMeRow, SubmitButton } from '../forms/fields';
import type { ButtonVariant } from '../ui/button';

/**
 * A person's sign-in (the user's, the partner's, and the user's inside an authorization request): e-mail, password,
 * "Remember me" beside the "Forgot password?" link (`forgotPassword`), and the Sign in button.
 */
export function SignInFields({
  form,
  forgotPassword,
  variant,
}: {
  form: UseFormReturn<LoginBody>;
  forgotPassword: ReactNode;
  variant?: ButtonVariant;
}) {
  return (
    <>
      <EmailField {...fieldProps(form, 'email')} />
      <PasswordField {...fieldProps(form, 'password')} />
      <RememberMeRow remember={form.register('rememberMe')}>{forgotPassword}</RememberMeRow>
      <SubmitButton busy={form.formState.isSubmitting} variant={variant}>
        Sign in
      </SubmitButton>
    </>
  );
}
