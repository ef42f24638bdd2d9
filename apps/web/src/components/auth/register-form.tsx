import { valibotResolver } from '@hookform/resolvers/valibot';
import { Link, useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import type * as v from 'valibot';
import { registerForm, type RegisterForm as RegisterValues } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { usersApi } from '../../api/users';
import { applyServerErrors } from '../../lib/form-errors';
import { pendingReturn } from '../../lib/oauth-return';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';
import { fieldProps } from '../forms/field-props';
import { EmailField, NameField, PasswordField, PhoneField, SubmitButton } from '../forms/fields';
import { CheckboxField } from '../ui/field';
import { AuthCard } from './auth-card';

type RegisterOutput = v.InferOutput<typeof registerForm>;

/** spec 01 §2 "User sign-up": success goes to /login with its toast; confirmPassword and terms are not sent. */
export function RegisterForm() {
  useDocumentTitle('Create your account');
  const navigate = useNavigate();
  const form = useForm<RegisterValues, unknown, RegisterOutput>({
    resolver: valibotResolver(registerForm),
    // Run every check, so 'Passwords must match' shows even while another field is still invalid.
    criteriaMode: 'all',
    defaultValues: {
      full_name: '',
      email: '',
      phone: '',
      password: '',
      confirmPassword: '',
      terms: false as unknown as true,
    },
  });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ full_name, email, phone, password }) => {
    try {
      await usersApi.register({ full_name, email, password, ...(phone ? { phone } : {}) });
      toast.success('Account created successfully! Please sign in.');
      // Back to the authorization that sent the user to sign up, if any (lib/oauth-return.ts).
      const back = pendingReturn();
      if (back) window.location.assign(back.path);
      else await navigate({ to: '/login', search: { email, registered: true } });
    } catch (error) {
      applyServerErrors(error, form.setError, ['full_name', 'email', 'phone', 'password']);
      toast.error(errorMessage(error, 'Registration failed'));
    }
  });

  return (
    <AuthCard
      title="Create your account"
      subtitle="Verify yourself once, then share only a yes or a no with the sites you choose."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className="font-semibold text-indigo-700 hover:text-indigo-900">
            Sign in
          </Link>
        </>
      }
    >
      <form className="space-y-4" noValidate onSubmit={onSubmit}>
        <NameField {...fieldProps(form, 'full_name')} />
        <EmailField {...fieldProps(form, 'email')} />
        <PhoneField label="Phone (optional)" {...fieldProps(form, 'phone')} />
        <PasswordField
          autoComplete="new-password"
          hint="At least 8 characters."
          {...fieldProps(form, 'password')}
        />
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          {...fieldProps(form, 'confirmPassword')}
        />
        <CheckboxField
          label={
            <>
              I agree to the{' '}
              <Link to="/terms" target="_blank" className="font-semibold text-indigo-700 underline">
                Terms of Service
              </Link>{' '}
              and the{' '}
              <Link to="/privacy" target="_blank" className="font-semibold text-indigo-700 underline">
                Privacy Policy
              </Link>
            </>
          }
          {...fieldProps(form, 'terms')}
        />
        <SubmitButton busy={isSubmitting}>Create account</SubmitButton>
      </form>
    </AuthCard>
  );
}
