import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useState } from 'react';
import * as v from 'valibot';
import { interactionLoginBody, type InteractionDetails } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { interactionQueryOptions, oauthApi } from '../../api/oauth';
import { profileQueryOptions, userKeys } from '../../api/users';
import { rememberReturn } from '../../lib/oauth-return';
import { tokens } from '../../auth/token-storage';
import { useHasToken } from '../../auth/session';
import { AuthCard } from '../../components/auth/auth-card';
import { SignInFields, useSignInForm } from '../../components/auth/sign-in-fields';
import { SiteHeader } from '../../components/oauth/site-header';
import { UseAWallet } from '../../components/oauth/use-a-wallet';
import { walletApi } from '../../api/wallet';
import { Button } from '../../components/ui/button';
import { FormError } from '../../components/ui/field';
import { QueryState } from '../../components/ui/query-state';
import { useDocumentTitle } from '../../lib/use-document-title';

/** Sign-in step of an authorization request (DESIGN.md §4): the provider sends the browser here with ?uid=. */
export const Route = createFileRoute('/oauth/login')({
  // response_code: a wallet on this device sent the browser back after presenting (components/oauth/use-a-wallet.tsx).
  validateSearch: v.object({
    uid: v.optional(v.string(), ''),
    response_code: v.optional(v.fallback(v.string(), ''), ''),
  }),
  // Defaults stay out of the address (issue 25 item 12: clean URLs, no empty `?return_to=`).
  search: { middlewares: [stripSearchParams({ uid: '', response_code: '' })] },
  component: OAuthLoginPage,
});

const asksAge = (interaction: InteractionDetails) =>
  interaction.scopes.some((scope) => /^AGE_\d{2}$/.test(scope.scope));

function OAuthLoginPage() {
  useDocumentTitle('Sign in to continue');
  const { uid, response_code: responseCode } = Route.useSearch();
  const details = useQuery(interactionQueryOptions(uid));
  const queryClient = useQueryClient();
  const signedIn = useHasToken('user');
  // "Continue as <email>" names the account that would be used.
  const profile = useQuery({ ...profileQueryOptions(), enabled: signedIn });
  // A site that named the wallet path (acr_values) gets the wallet first (components/oauth/use-a-wallet.tsx).
  const wallet = useQuery({
    queryKey: ['oauth', 'wallet', uid],
    queryFn: ({ signal }) => walletApi.presentationStatus(uid, signal),
    enabled: !!details.data && asksAge(details.data),
    retry: false,
    staleTime: Infinity,
  });
  const walletFirst = wallet.data?.wallet_requested ?? false;
  const loginPath = `/oauth/login?uid=${encodeURIComponent(uid)}`;
  const [continuing, setContinuing] = useState(false);
  const { form, failure, setFailure, onSubmit } = useSignInForm(
    interactionLoginBody,
    '',
    async (values) => {
      const answer = await oauthApi.login(uid, values);
      if (answer.access_token) {
        tokens.set('user', answer.access_token, {
          remember: values.rememberMe ?? false,
          expiresAt: answer.expires_at ?? null,
        });
        if (answer.user) queryClient.setQueryData(userKeys.profile(), answer.user);
      }
      window.location.assign(answer.redirect_to);
    },
    (error) => errorMessage(error, 'Login failed'),
  );

  async function continueAsUser() {
    setFailure(null);
    setContinuing(true);
    try {
      window.location.assign((await oauthApi.continueAsUser(uid)).redirect_to);
    } catch (error) {
      setContinuing(false);
      setFailure(errorMessage(error, 'Login failed'));
    }
  }

  return (
    <AuthCard
      title="Sign in to continue"
      subtitle="Sign in with your Attestly account to share your verification."
    >
      <QueryState
        query={details}
        loadingLabel="Loading the request…"
        errorFallback="This sign-in request has expired."
      >
        {(interaction) => (
          <div className="space-y-6">
            <SiteHeader site={interaction.site} />
            {asksAge(interaction) && walletFirst ? (
              <UseAWallet uid={uid} responseCode={responseCode || null} first />
            ) : null}
            <FormError message={failure} />
            {signedIn ? (
              <div className="space-y-2">
                <Button className="w-full" busy={continuing} onClick={() => void continueAsUser()}>
                  {profile.data ? `Continue as ${profile.data.email}` : 'Continue with your Attestly account'}
                </Button>
                <p className="text-center text-sm text-slate-700">or sign in with another account below</p>
              </div>
            ) : null}
            <form className="space-y-4" noValidate onSubmit={onSubmit}>
              <SignInFields
                form={form}
                variant={signedIn ? 'secondary' : 'primary'}
                forgotPassword={
                  // Both come back to this authorization (lib/oauth-return.ts).
                  <a
                    href={`/forgot-password?return_to=${encodeURIComponent(loginPath)}`}
                    onClick={() => rememberReturn(loginPath)}
                    className="text-sm font-semibold text-indigo-700 hover:text-indigo-900"
                  >
                    Forgot password?
                  </a>
                }
              />
            </form>
            <p className="text-center text-sm text-slate-700">
              No Attestly account yet?{' '}
              <a
                href={`/register?return_to=${encodeURIComponent(loginPath)}`}
                onClick={() => rememberReturn(loginPath)}
                className="font-semibold text-indigo-700 hover:text-indigo-900"
              >
                Create an account
              </a>{' '}
              and come back here.
            </p>
            {/* A site asking for an age also takes a wallet's age credential (issue 24). */}
            {asksAge(interaction) && !walletFirst ? (
              <UseAWallet uid={uid} responseCode={responseCode || null} />
            ) : null}
          </div>
        )}
      </QueryState>
    </AuthCard>
  );
}
