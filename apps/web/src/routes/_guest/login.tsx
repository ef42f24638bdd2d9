import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import * as v from 'valibot';
import { LoginForm } from '../../components/auth/login-form';

/** `?email=` prefills the form; `&registered=true` (set by sign-up) says where the verification link went. */
const loginSearch = v.object({
  email: v.optional(v.fallback(v.pipe(v.string(), v.maxLength(254)), ''), ''),
  registered: v.optional(v.fallback(v.boolean(), false), false),
});

export const Route = createFileRoute('/_guest/login')({
  validateSearch: loginSearch,
  // Defaults stay out of the address (issue 25 item 12: no `?email=&registered=false`).
  search: { middlewares: [stripSearchParams({ email: '', registered: false })] },
  component: LoginPage,
});

function LoginPage() {
  const { email, registered } = Route.useSearch();
  return <LoginForm email={email} registered={registered} />;
}
