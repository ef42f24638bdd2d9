import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Button, type ButtonVariant } from '../ui/button';
import { CheckboxField, TextField } from '../ui/field';

/**
 * The name, e-mail, password and phone fields of the sign-in, sign-up and profile forms, with their usual label, input type
 * and autocomplete; each can be given another label or autocomplete (e.g. "Work email", "new-password").
 */
type FieldProps = Omit<ComponentPropsWithoutRef<typeof TextField>, 'type' | 'label'> & { label?: ReactNode };

export const NameField = forwardRef<HTMLInputElement, FieldProps>(function NameField(
  { label = 'Full name', autoComplete = 'name', ...rest },
  ref,
) {
  return <TextField ref={ref} label={label} autoComplete={autoComplete} {...rest} />;
});

export const EmailField = forwardRef<HTMLInputElement, FieldProps>(function EmailField(
  { label = 'Email', autoComplete = 'email', ...rest },
  ref,
) {
  return <TextField ref={ref} label={label} type="email" autoComplete={autoComplete} {...rest} />;
});

/** A password field; `autoComplete="new-password"` where one is chosen rather than typed from memory. */
export const PasswordField = forwardRef<HTMLInputElement, FieldProps>(function PasswordField(
  { label = 'Password', autoComplete = 'current-password', ...rest },
  ref,
) {
  return <TextField ref={ref} label={label} type="password" autoComplete={autoComplete} {...rest} />;
});

/**
 * "New password" and "Confirm new password" (changing or resetting a password); both `new-password`, so a password
 * manager offers to generate one and fills both.
 */
export function NewPasswordFields({ password, confirm }: { password: FieldProps; confirm: FieldProps }) {
  return (
    <>
      <PasswordField label="New password" autoComplete="new-password" {...password} />
      <PasswordField label="Confirm new password" autoComplete="new-password" {...confirm} />
    </>
  );
}

export const PhoneField = forwardRef<HTMLInputElement, FieldProps>(function PhoneField(
  { label = 'Phone', autoComplete = 'tel', ...rest },
  ref,
) {
  return <TextField ref={ref} label={label} type="tel" autoComplete={autoComplete} {...rest} />;
});

/** "Remember me" beside the form's "Forgot password?" link (the children). */
export function RememberMeRow({
  remember,
  children,
}: {
  remember: UseFormRegisterReturn;
  children: ReactNode;
}) {
  return (
    <div className="flex items-center justify-between gap-4">
      <CheckboxField label="Remember me" {...remember} />
      {children}
    </div>
  );
}

/** The full-width submit button of a sign-in or sign-up card. */
export function SubmitButton({
  busy,
  variant,
  children,
}: {
  busy: boolean;
  variant?: ButtonVariant;
  children: ReactNode;
}) {
  return (
    <Button type="submit" busy={busy} className="w-full" variant={variant}>
      {children}
    </Button>
  );
}
