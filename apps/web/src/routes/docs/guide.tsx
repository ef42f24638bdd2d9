import { Link, createFileRoute } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { CodeBlock, applianceUrl } from '../../components/docs/code-block';
import { DocTitle } from '../../components/docs/doc-page';
import { DOC_SECTIONS } from '../../components/docs/doc-sections';
import { authorizationRequestSample } from '../../components/docs/quick-start';
import { WalletProofsGuide } from '../../components/docs/wallet-proofs';
import { PublicPage } from '../../components/layout/public-page';
import { useCardCheck } from '../../lib/capabilities';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/docs/guide')({ component: GuidePage });

const link = 'font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900';

/** `cardCheck`: whether this installation offers the credit-card age check (named only then; lib/capabilities.ts). */
function content(origin: string, cardCheck: boolean): Record<string, ReactNode> {
  return {
    'account-setup': (
      <>
        <p>
          Register your business on the partner portal of this appliance with your company name, a contact and
          a business type. Confirm the email address you registered with; the portal then lets you manage
          sites, API keys, webhooks, your audit log and your plan.
        </p>
        <p>
          Each website or app that will ask visitors for proof is a <strong>site</strong>: a name, its domain,
          the exact redirect URIs it may return to, and the scopes it may request (basic_info and AGE_18 by
          default). A site is an OpenID Connect client; its client id and secret are shown when you create it.
        </p>
      </>
    ),
    'api-keys': (
      <>
        <p>
          Server-to-server calls (statistics, site management, webhooks) authenticate with an API key in the{' '}
          <code>X-API-Key</code> header. Keys come in two kinds — <strong>sandbox</strong> and{' '}
          <strong>live</strong> — and are shown once when created: the appliance keeps only a hash.
          Regenerating a key invalidates the previous one immediately, so roll it out to your servers first.
        </p>
        <p>Never put an API key or a client secret in browser code or a mobile app.</p>
      </>
    ),
    'first-verification': (
      <>
        <p>
          Send a visitor to the authorization endpoint with the scopes you need (see{' '}
          <a href="#oauth-flow" className={link}>
            OAuth Flow
          </a>
          ). If they have not yet proven what you ask for, the consent screen offers to verify right away — by
          {cardCheck
            ? ' document, credit card or facial age estimation'
            : ' document or facial age estimation'}{' '}
          — and then returns them to your redirect URI.
        </p>
        <CodeBlock label="Authorization request" code={authorizationRequestSample(origin)} />
      </>
    ),
    'testing-environment': (
      <>
        <p>
          Use a sandbox API key and a site whose redirect URIs point at your development machine (for example{' '}
          <code>http://localhost:3000/callback</code>). Because Attestly is self-hosted, the most faithful
          test environment is a second appliance: run one locally with <code>npm start</code> or the container
          image, on an empty database, and point your development configuration at it.
        </p>
      </>
    ),
    authentication: (
      <>
        <p>Three kinds of credentials reach the API:</p>
        <ul>
          <li>
            <strong>Session tokens</strong> for people (users, partners, administrators): opaque bearer tokens
            in <code>Authorization: Bearer …</code>, from the sign-in endpoints. The prefix names the kind (
            <code>atu_</code> user, <code>atp_</code> partner, <code>ata_</code> administrator); the appliance
            stores only their SHA-256.
          </li>
          <li>
            <strong>API keys</strong> for your servers, in <code>X-API-Key</code>.
          </li>
          <li>
            <strong>OpenID Connect access tokens</strong> issued to your site, for{' '}
            <code>/oauth2/userinfo</code>.
          </li>
        </ul>
        <p>
          Errors share one shape: <code>{'{ detail, code, errors?, request_id }'}</code>. Show{' '}
          <code>detail</code> to people; branch on <code>code</code>. The{' '}
          <Link to="/docs/api" className={link}>
            API reference
          </Link>{' '}
          lists every endpoint with its schemas.
        </p>
      </>
    ),
    'user-verification': (
      <>
        <p>
          Verification happens on the appliance, between Attestly and the person — your site never handles the
          {cardCheck ? 'photo, document or card' : 'photo or document'}. A verification is an age, location or
          identity check by
          {cardCheck ? ' credit card,' : ''} document, facial recognition or IP geolocation; an approved one
          establishes a fact (such as a proven minimum age) that stays valid for twelve months by default.
        </p>
        <p>
          Facial age estimation approves a threshold only when the estimate clears a higher &ldquo;challenge
          age&rdquo; (18 + 7 = 25 by default) and the liveness check passes; anyone below it is pointed to
          document verification instead.
        </p>
      </>
    ),
    'partner-management': (
      <p>
        Sites, API keys, webhooks, plans and your audit log are managed in the partner portal and through the
        partner endpoints of the{' '}
        <Link to="/docs/api" className={link}>
          API reference
        </Link>
        . Plans (free, starter, growth, scale) set a monthly verification quota. Only approvals your sign-in
        flow leads to count toward it — once per user, kind of check and month; failed and sandbox checks
        never — and at most 10 attempts per user a day count for you at all. Past the quota your users can
        still verify: their approvals are simply not counted or sent to you, and your audit log says so with a{' '}
        <code>partner.quota_exceeded</code> entry.
      </p>
    ),
    webhooks: (
      <>
        <p>
          Subscribe a URL to events such as <code>verification.completed</code>,{' '}
          <code>verification.failed</code>, <code>token.revoked</code> and <code>token.expired</code>. Each
          delivery carries an <code>Attestly-Signature: t=TIMESTAMP,v1=HMAC</code> header: the HMAC-SHA256,
          with your webhook secret, of <code>TIMESTAMP.BODY</code>. Failed deliveries are retried with backoff
          and listed in the delivery log.
        </p>
        <CodeBlock
          label="Node.js — verifying a webhook signature"
          code={`import { createHmac, timingSafeEqual } from 'node:crypto';

export function verifyAttestlySignature(header, rawBody, secret, toleranceSeconds = 300) {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=')));
  const age = Math.abs(Date.now() / 1000 - Number(parts.t));
  if (!parts.t || !parts.v1 || age > toleranceSeconds) return false; // stale: possible replay
  const expected = createHmac('sha256', secret).update(\`\${parts.t}.\${rawBody}\`).digest('hex');
  return expected.length === parts.v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1));
}`}
        />
      </>
    ),
    'oauth-flow': (
      <>
        <p>Attestly is a standard OpenID Connect provider. Discovery is at:</p>
        <CodeBlock label="Discovery document" code={`${origin}/oauth2/.well-known/openid-configuration`} />
        <ol>
          <li>
            Your server creates a random <code>state</code> and a PKCE <code>code_verifier</code> (32 random
            bytes, base64url), and redirects to <code>/oauth2/authorize</code> with the S256{' '}
            <code>code_challenge</code>. PKCE is required for every client.
          </li>
          <li>
            The person signs in (or signs up), verifies if needed, and approves the scopes on the consent
            screen.
          </li>
          <li>
            Attestly redirects to your <code>redirect_uri</code> with <code>code</code> and <code>state</code>
            . Check that <code>state</code> matches.
          </li>
          <li>
            Your server posts the code and <code>code_verifier</code> to <code>/oauth2/token</code> and gets
            an access token (and an ID token).
          </li>
          <li>
            Call <code>/oauth2/userinfo</code> with the access token and read the claims.
          </li>
        </ol>
        <p>
          A denied request returns <code>error=access_denied</code> to your redirect URI.
        </p>
      </>
    ),
    'scopes-and-permissions': (
      <>
        <table>
          <thead>
            <tr>
              <th>Scope</th>
              <th>Claims your site receives</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>basic_info</code> (always required)
              </td>
              <td>sub only: an identifier for your partner account, different at every partner</td>
            </tr>
            <tr>
              <td>
                <code>profile</code> (optional, the person may decline)
              </td>
              <td>name</td>
            </tr>
            <tr>
              <td>
                <code>email</code> (optional, the person may decline)
              </td>
              <td>email, email_verified</td>
            </tr>
            <tr>
              <td>
                <code>AGE_12</code>, <code>AGE_16</code>, <code>AGE_18</code>, <code>AGE_21</code>
              </td>
              <td>age_verified, age_threshold, age_over_NN, verification_timestamp (the day only)</td>
            </tr>
            <tr>
              <td>
                <code>location_verification</code>
              </td>
              <td>location_verified, location (country, state)</td>
            </tr>
            <tr>
              <td>
                <code>identity_verification</code>
              </td>
              <td>identity_verified, with OpenID Connect for Identity Assurance verified_claims metadata</td>
            </tr>
          </tbody>
        </table>
        <p>
          Claims are minimal by design: you learn that a person is over 18, never their birth date, document
          or photo. A site can only request the scopes its registration allows. A fact that is not proven is
          absent, never false: <code>age_verified: false</code> with no <code>age_over_18</code> means the
          person has not proven 18+, not that they are under 18.
        </p>
      </>
    ),
    'token-management': (
      <p>
        Access tokens are short-lived (an hour in the documented samples: <code>expires_in: 3600</code>).
        People see every site they granted access to on their Connected sites page and can revoke it at any
        time; revocation invalidates the site&apos;s tokens and sends a <code>token.revoked</code> webhook.
        Your own server can revoke a token with <code>/oauth2/revoke</code> and check one with{' '}
        <code>/oauth2/introspect</code>.
      </p>
    ),
    'wallet-proofs': <WalletProofsGuide origin={origin} />,
    'best-practices': (
      <ul>
        <li>Ask for the narrowest scope that meets your legal duty (AGE_18, not identity_verification).</li>
        <li>Exchange codes and keep secrets on your server only; treat the browser as untrusted.</li>
        <li>
          Register exact redirect URIs over HTTPS; never accept a redirect target from a query parameter.
        </li>
        <li>
          Re-check the claim at the moment it matters (checkout, account creation) rather than caching it for
          months.
        </li>
        <li>
          Handle <code>access_denied</code> and 429 answers with a clear message to the person.
        </li>
      </ul>
    ),
    'data-protection': (
      <>
        <p>
          Photos, videos and documents are analysed on the appliance itself: face detection, age estimation,
          liveness and document reading run locally, and the engine makes no outbound network calls. Media is
          encrypted at rest with keys derived from the appliance&apos;s master key and deleted right after
          analysis, unless a case needs manual review — then it is kept only until it is reviewed or the
          retention limit passes.
        </p>
        {cardCheck ? (
          <p>
            Card checks run through Stripe: the card goes from the person&apos;s browser to Stripe and its
            issuer confirms it, so the appliance never sees the number or CVV. It keeps only the brand, the
            last four digits, the funding type, the issuing country and a keyed fingerprint.
          </p>
        ) : null}
      </>
    ),
    'gdpr-compliance': (
      <>
        <p>
          The operator of this appliance is the controller of the data it processes; a partner site receives
          only the claims a person approved. Verification relies on the person&apos;s request (and, where a
          law requires the check, the partner&apos;s legal obligation). Data minimisation is built in: claims
          are yes/no, evidence stays on the box and is deleted after analysis, and verified facts expire.
        </p>
        <p>
          People can see and correct their profile, revoke partner access, and delete their account from the
          Security page. See the{' '}
          <Link to="/privacy" className={link}>
            privacy policy
          </Link>
          .
        </p>
      </>
    ),
    'audit-logs': (
      <p>
        Every security-relevant action — sign-ins, password changes, verifications, grants and revocations,
        administrative actions — is written to an append-only audit log. Each entry stores the hash of the
        previous one, so altering or deleting history breaks the chain and is detected by{' '}
        <code>attestly audit verify</code>. Partners see the entries that concern their sites in the portal.
      </p>
    ),
    'security-best-practices': (
      <ul>
        <li>Serve the appliance over HTTPS only and set its public URL accordingly.</li>
        <li>Keep the master key out of backups of the database, and back up both.</li>
        <li>Administrators sign in with a password and a mandatory one-time code (TOTP).</li>
        <li>Rotate API keys when staff leave; verify webhook signatures and timestamps.</li>
        <li>
          Watch{' '}
          <Link to="/status" className={link}>
            readiness
          </Link>{' '}
          and the Prometheus metrics at <code>/metrics</code>.
        </li>
      </ul>
    ),
  };
}

function GuidePage() {
  useDocumentTitle('Integration guide');
  const sections = content(applianceUrl(), useCardCheck() !== null);
  return (
    <PublicPage>
      <div className="mx-auto flex max-w-6xl gap-10 px-4 py-12 sm:px-6">
        <nav
          aria-label="Guide contents"
          className="sticky top-24 hidden max-h-[calc(100vh-8rem)] w-56 shrink-0 overflow-y-auto lg:block"
        >
          {DOC_SECTIONS.map((section) => (
            <div key={section.title} className="mb-5">
              <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{section.title}</p>
              <ul className="mt-2 space-y-1">
                {section.items.map((item) => (
                  <li key={item.slug}>
                    <a href={`#${item.slug}`} className="text-sm text-slate-700 hover:text-indigo-800">
                      {item.title}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <div className="min-w-0 flex-1">
          <DocTitle>Integration guide</DocTitle>
          {DOC_SECTIONS.map((section) => (
            <section key={section.title} className="mt-12">
              <h2 className="text-2xl font-bold text-slate-900">{section.title}</h2>
              {section.items.map((item) => (
                <section
                  key={item.slug}
                  id={item.slug}
                  aria-labelledby={`${item.slug}-title`}
                  className="scroll-mt-24"
                >
                  <h3 id={`${item.slug}-title`} className="mt-8 text-xl font-semibold text-slate-900">
                    {item.title}
                  </h3>
                  <div className="prose-body">{sections[item.slug]}</div>
                </section>
              ))}
            </section>
          ))}
        </div>
      </div>
    </PublicPage>
  );
}
