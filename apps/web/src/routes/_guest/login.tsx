import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { LoginForm } from '../../components/auth/login-form';

/** `?email=` prefills the form; `&registered=true` (set by sign-up) says where the verification link went. */
const loginSearch = v.object({
  email: v.optional(v.fallback(v.pipe(v.string(), v.maxLength(254)), ''), ''),
  registered: v.optional(v.fallback(v.boolean(), false), false),
});

export const Route = createFileRoute('/_guest/login')({
  validateSearch: loginSearch,
  component: LoginPage,
});

function LoginPage() {
  const { email, registered } = Route.useSearch();
  return <LoginForm email={email} registered={registered} />;
}
