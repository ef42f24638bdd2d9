import { valibotResolver } from '@hookform/resolvers/valibot';
import type { ReactNode } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import type { interactionLoginBody, LoginBody, loginBody, partnerLoginBody } from '@attestly/contracts';
import { useSubmitFailure } from '../../lib/use-submit-failure';
import { fieldProps } from '../forms/field-props';
import { EmailField, PasswordField, RememberMeRow, SubmitButton } from '../forms/fields';
import type { ButtonVariant } from '../ui/button';

/**
 * The form behind SignInFields: the address prefilled with `email`, the password empty, "Remember me" off; a failed
 * `submit` shows what `failed` makes of it above the fields.
 */
export function useSignInForm(
  schema: typeof loginBody | typeof partnerLoginBody | typeof interactionLoginBody,
  email: string,
  submit: (values: LoginBody) => Promise<void>,
  failed: (error: unknown) => string,
) {
  const form = useForm<LoginBody>({
    resolver: valibotResolver(schema),
    defaultValues: { email, password: '', rememberMe: false },
  });
  return { form, ...useSubmitFailure(form, submit, failed) };
}

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
