import { valibotResolver } from '@hookform/resolvers/valibot';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  BUSINESS_TYPES,
  partnerLoginBody,
  partnerRegisterBody,
  type PartnerLoginBody,
  type PartnerRegisterBody,
} from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { partnerApi } from '../../api/partner';
import { signInPartner } from '../../auth/partner-session';
import { AuthCard } from '../../components/auth/auth-card';
import {
  EmailField,
  NameField,
  PasswordField,
  PhoneField,
  RememberMeRow,
  SubmitButton,
} from '../../components/forms/fields';
import { FormError, SelectField, TextField } from '../../components/ui/field';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * /partner/login (spec 01 §2): one screen toggling between sign-in and registration. A registration switches to
 * sign-in with the e-mail prefilled and the spec's toast; a sign-in goes to /partner/dashboard.
 */
export function PartnerLoginPage() {
  const [mode, setMode] = useState<'login' | 'register'>('login');
  const [email, setEmail] = useState('');
  useDocumentTitle(mode === 'login' ? 'Partner sign in' : 'Partner registration');
  return mode === 'login' ? (
    <LoginForm email={email} onRegister={() => setMode('register')} />
  ) : (
    <RegisterForm
      onDone={(registered) => {
        setEmail(registered);
        setMode('login');
      }}
      onLogin={() => setMode('login')}
    />
  );
}

const toggleClass = 'font-semibold text-indigo-700 hover:text-indigo-900';

function LoginForm({ email, onRegister }: { email: string; onRegister(): void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<PartnerLoginBody>({
    resolver: valibotResolver(partnerLoginBody),
    defaultValues: { email, password: '', rememberMe: false },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await signInPartner(queryClient, values);
      toast.success('Login successful!');
      await navigate({ href: '/partner/dashboard' });
    } catch (error) {
      const message = errorMessage(error, 'Partner login failed');
      setFailure(message);
      toast.error(message);
    }
  });
  return (
    <AuthCard
      title="Partner sign in"
      subtitle="Manage your sites, API keys and verification statistics."
      footer={
        <>
          New to Attestly for business?{' '}
          <button type="button" className={toggleClass} onClick={onRegister}>
            Register your company
          </button>
        </>
      }
    >
      <form className="space-y-4" noValidate onSubmit={onSubmit}>
        <FormError message={failure} />
        <EmailField error={errors.email?.message} {...form.register('email')} />
        <PasswordField error={errors.password?.message} {...form.register('password')} />
        <RememberMeRow remember={form.register('rememberMe')}>
          <Link to={'/partner/forgot-password' as '/'} className={`text-sm ${toggleClass}`}>
            Forgot password?
          </Link>
        </RememberMeRow>
        <SubmitButton busy={isSubmitting}>Sign in</SubmitButton>
      </form>
    </AuthCard>
  );
}

function RegisterForm({ onDone, onLogin }: { onDone(email: string): void; onLogin(): void }) {
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
  const { errors, isSubmitting } = form.formState;
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
          <button type="button" className={toggleClass} onClick={onLogin}>
            Sign in
          </button>
        </>
      }
    >
      <form className="space-y-4" noValidate onSubmit={onSubmit}>
        <EmailField label="Work email" error={errors.email?.message} {...form.register('email')} />
        <PasswordField
          autoComplete="new-password"
          hint="At least 8 characters"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <TextField
          label="Company name"
          autoComplete="organization"
          error={errors.company_name?.message}
          {...form.register('company_name')}
        />
        <NameField
          label="Contact name (optional)"
          error={errors.contact_name?.message}
          {...form.register('contact_name')}
        />
        <PhoneField label="Phone (optional)" error={errors.phone?.message} {...form.register('phone')} />
        <TextField
          label="Website (optional)"
          type="url"
          placeholder="https://shop.example.com"
          error={errors.website?.message}
          {...form.register('website')}
        />
        <SelectField
          label="Business type (optional)"
          error={errors.business_type?.message}
          {...form.register('business_type')}
        >
          <option value="">Choose…</option>
          {BUSINESS_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectField>
        <SubmitButton busy={isSubmitting}>Create partner account</SubmitButton>
      </form>
    </AuthCard>
  );
}
