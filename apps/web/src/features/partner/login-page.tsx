import { valibotResolver } from '@hookform/resolvers/valibot';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { partnerLoginBody, partnerRegisterBody, type PartnerRegisterBody } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { partnerApi } from '../../api/partner';
import { partnerNextPath } from '../../auth/guards';
import { signInPartner } from '../../auth/partner-session';
import { AuthCard } from '../../components/auth/auth-card';
import { SignInFields, useSignInForm } from '../../components/auth/sign-in-fields';
import { fieldProps } from '../../components/forms/field-props';
import {
  EmailField,
  NameField,
  PasswordField,
  PhoneField,
  SubmitButton,
} from '../../components/forms/fields';
import { buttonClass } from '../../components/ui/button';
import { FormError, TextField } from '../../components/ui/field';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';
import { BusinessTypeField } from './business-type-field';

/**
 * /partner/login (spec 01 §2): sign-in, with the way to /partner/register (issue 25 item 13: registration has an
 * address of its own). A sign-in goes on to `next` (the portal page asked for), else /partner/dashboard.
 */
export function PartnerLoginPage({ next = '', email = '' }: { next?: string; email?: string }) {
  useDocumentTitle('Partner sign in');
  return <LoginForm email={email} next={next} />;
}

/** /partner/register: the spec's registration form; success leads to /partner/registered. */
export function PartnerRegisterPage() {
  useDocumentTitle('Partner registration');
  const navigate = useNavigate();
  return (
    <RegisterForm
      onDone={(registered) => void navigate({ to: '/partner/registered', search: { email: registered } })}
    />
  );
}

/** After registering: what was sent where, and what to do next (a page, not just a toast). */
export function PartnerRegisteredPage({ email }: { email: string }) {
  useDocumentTitle('Partner registration received');
  return (
    <AuthCard title="Check your inbox" subtitle="Your partner account has been created.">
      <div className="space-y-4 text-sm text-slate-800">
        <p>
          We sent a confirmation link to{' '}
          {email ? <strong className="break-all">{email}</strong> : 'the address you registered with'}. Open
          it to confirm that the address is yours.
        </p>
        <ol className="list-decimal space-y-1 pl-5">
          <li>Open the link in the e-mail.</li>
          <li>Sign in to the partner portal.</li>
          <li>Add your first site and create an API key; the demo shows the whole flow.</li>
        </ol>
        <p className="text-slate-700">
          No e-mail after a few minutes? Check your spam folder, or sign in and choose Resend e-mail.
        </p>
        <Link to="/partner/login" search={{ email }} className={buttonClass('primary', 'w-full')}>
          Go to partner sign-in
        </Link>
      </div>
    </AuthCard>
  );
}

const toggleClass = 'font-semibold text-indigo-700 hover:text-indigo-900';

function LoginForm({ email, next }: { email: string; next: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { form, failure, onSubmit } = useSignInForm(
    partnerLoginBody,
    email,
    async (values) => {
      await signInPartner(queryClient, values);
      toast.success('Login successful!');
      await navigate({ href: partnerNextPath(next) });
    },
    (error) => {
      const message = errorMessage(error, 'Partner login failed');
      toast.error(message);
      return message;
    },
  );
  return (
    <AuthCard
      title="Partner sign in"
      subtitle="Manage your sites, API keys and verification statistics."
      footer={
        <>
          New to Attestly for business?{' '}
          <Link to="/partner/register" className={toggleClass}>
            Register your company
          </Link>
        </>
      }
    >
      <form className="space-y-4" noValidate onSubmit={onSubmit}>
        <FormError message={failure} />
        <SignInFields
          form={form}
          forgotPassword={
            <Link to={'/partner/forgot-password' as '/'} className={`text-sm ${toggleClass}`}>
              Forgot password?
            </Link>
          }
        />
      </form>
    </AuthCard>
  );
}

function RegisterForm({ onDone }: { onDone(email: string): void }) {
  const form = useForm<PartnerRegisterBody>({
    resolver: valibotResolver(partnerRegisterBody),
    defaultValues: {
      email: '',
      password: '',
      company_name: '',
      contact_name: '',
      phone: '',
      website: '',
      business_type: '',
    },
  });
  const { isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await partnerApi.register(values);
      toast.success('Registration successful! Please check your email to verify your account.');
      onDone(values.email);
    } catch (error) {
      applyServerErrors(error, form.setError, [
        'email',
        'password',
        'company_name',
        'contact_name',
        'phone',
        'website',
        'business_type',
      ]);
      toast.error(errorMessage(error, 'Registration failed'));
    }
  });
  return (
    <AuthCard
      title="Register your company"
      subtitle="Verify your customers' age, location or identity through OpenID Connect."
      footer={
        <>
          Already registered?{' '}
          <Link to="/partner/login" className={toggleClass}>
            Sign in
          </Link>
        </>
      }
    >
      <form className="space-y-4" noValidate onSubmit={onSubmit}>
        <EmailField label="Work email" {...fieldProps(form, 'email')} />
        <PasswordField
          autoComplete="new-password"
          hint="At least 8 characters"
          {...fieldProps(form, 'password')}
        />
        <TextField label="Company name" autoComplete="organization" {...fieldProps(form, 'company_name')} />
        <NameField label="Contact name (optional)" {...fieldProps(form, 'contact_name')} />
        <PhoneField label="Phone (optional)" {...fieldProps(form, 'phone')} />
        <TextField
          label="Website (optional)"
          inputMode="url"
          autoComplete="url"
          placeholder="shop.example.com"
          {...fieldProps(form, 'website')}
        />
        <BusinessTypeField {...fieldProps(form, 'business_type')} />
        <SubmitButton busy={isSubmitting}>Create partner account</SubmitButton>
      </form>
    </AuthCard>
  );
}
