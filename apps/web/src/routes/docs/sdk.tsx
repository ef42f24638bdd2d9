import { useQuery } from '@tanstack/react-query';
import { Link, createFileRoute } from '@tanstack/react-router';
import { sdkDownloadsQueryOptions } from '../../api/site';
import { CodeBlock, applianceUrl } from '../../components/docs/code-block';
import { DocSection, DocTitle } from '../../components/docs/doc-page';
import { quickStartSample } from '../../components/docs/quick-start';
import { PublicPage } from '../../components/layout/public-page';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/docs/sdk')({ component: SdkPage });

function SdkPage() {
  useDocumentTitle('SDKs and client libraries');
  const origin = applianceUrl();
  const sdk = useQuery(sdkDownloadsQueryOptions());
  return (
    <PublicPage>
      <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
        <DocTitle>SDKs and client libraries</DocTitle>
        <div className="prose-body mt-6">
          <p>
            Everything a partner site does with Attestly is standard: OpenID Connect for asking people for
            proof, and a JSON REST API for the rest. The <code>@attestly/sdk</code> package (ESM with
            TypeScript types) wraps both: a server client that authenticates with your API key, and a browser
            helper that opens the consent popup. Any standard library works too (below).
          </p>
        </div>

        <DocSection id="sdk-download" title="Download and install">
          <div className="prose-body">
            <p>
              This appliance serves the SDK itself, so its version always matches the server. Install the
              package into your project with npm (Node.js 20 or later):
            </p>
          </div>
          <CodeBlock
            label="npm"
            code={sdk.data?.install ?? `npm install ${origin}/sdk/attestly-sdk-latest.tgz`}
          />
          <div className="prose-body">
            <p>
              {sdk.data ? `Version ${sdk.data.version}. ` : null}The address is versioned, so your{' '}
              <code>package.json</code> pins it; <code>/sdk/index.json</code> lists the current version and
              each file&apos;s integrity hash. Pages without a build step can load the browser helper as an ES
              module:
            </p>
          </div>
          <CodeBlock
            label="Browser (no build step)"
            code={`<script type="module">
  import { openConsentPopup } from '${origin}/sdk/attestly-sdk-browser-latest.js';
</script>`}
          />
          <p className="mt-4 flex flex-wrap gap-4 text-sm font-semibold">
            <a href="/sdk/attestly-sdk-latest.tgz" download className="text-indigo-700 underline">
              Download the package (.tgz)
            </a>
            <a href="/sdk/attestly-sdk-browser-latest.js" className="text-indigo-700 underline">
              Browser module (.js)
            </a>
          </p>
        </DocSection>

        <DocSection id="partner-flow" title="From sign-up to your first verified user">
          <ol className="prose-body list-decimal pl-6">
            <li>
              Register your company at <Link to={'/partner/register' as '/'}>/partner/register</Link> and open
              the link in the confirmation e-mail.
            </li>
            <li>
              In <strong>Management</strong>, add a site: its domain, the redirect URIs on that domain
              (loopback addresses only for sandbox sites) and the scopes you need. Keep the client secret it
              shows once.
            </li>
            <li>
              Create a sandbox API key (<code>atk_test_…</code>) for your server; a live key later.
            </li>
            <li>
              Run <strong>Test Integration</strong> on the Integration page, then try the real consent popup
              on the Demo page.
            </li>
            <li>
              Send people through the popup (or a redirect) to <code>/oauth2/authorize</code>, exchange the
              code on your server, and check the token with <code>validateToken</code>. Their verifications
              appear on your dashboard and in your audit log.
            </li>
          </ol>
        </DocSection>

        <DocSection id="sdk-server" title="Quick start: the server client">
          <div className="prose-body">
            <p>
              Initialise it with an API key and an environment — <code>sandbox</code> takes{' '}
              <code>atk_test_</code> keys, <code>production</code> takes <code>atk_live_</code> keys — and
              read a yes or no. Sandbox results are marked sandbox and never count toward your quota.
            </p>
          </div>
          <CodeBlock
            label="Node.js (@attestly/sdk) — is this visitor 18 or over?"
            code={`import { Attestly } from '@attestly/sdk';

const attestly = new Attestly({
  apiKey: process.env.ATTESTLY_API_KEY,
  environment: 'sandbox', // or 'production'
  baseUrl: '${origin}',
});

// userId: the sub your site received when the visitor signed in with Attestly (AGE_18 granted).
const result = await attestly.verifyAge({ userId, ageThreshold: 18 });
const verified = result.verified; // false: send the visitor to result.verify_url

// Or check the access token your site received (see the browser helper below).
const token = await attestly.validateToken(accessToken);

const stats = await attestly.getStats(); // total, success rate, monthly usage, trend, top countries…
const { audit_logs } = await attestly.getAuditLogs({ event: 'verification.completed', limit: 20 });`}
          />
          <div className="prose-body">
            <p>
              <code>verifyAge</code> answers for users who granted your site an age scope at least as high as
              the threshold (otherwise a 403); <code>method</code> narrows it to one way of proving, such as{' '}
              <code>document</code>. A sandbox key sees the users of your sandbox sites only.
            </p>
            <p>
              Errors are <code>AttestlyError</code> with the server&apos;s <code>status</code>,{' '}
              <code>code</code> and <code>detail</code>.{' '}
              <code>verifyWebhook(signatureHeader, rawBody, secret)</code> checks a webhook&apos;s{' '}
              <code>Attestly-Signature</code>.
            </p>
          </div>
        </DocSection>

        <DocSection id="sdk-browser" title="The browser helper: the consent popup">
          <div className="prose-body">
            <p>
              <code>openConsentPopup</code> opens Attestly&apos;s sign-in and consent screens in a 500 × 700
              popup (size and title configurable), runs the authorization code flow with PKCE S256 and a
              state, and resolves with the code once the popup comes back to your redirect URI (on your
              page&apos;s origin, or a page there that calls <code>handlePopupCallback()</code>). A denial
              rejects with <code>access_denied</code>.
            </p>
          </div>
          <CodeBlock
            label="Browser (@attestly/sdk/browser)"
            code={`import { openConsentPopup } from '@attestly/sdk/browser';

const { code, codeVerifier } = await openConsentPopup({
  baseUrl: '${origin}',
  clientId: 'atc_…',
  redirectUri: 'https://shop.example.com/attestly/callback',
  scopes: ['AGE_18'],
});
// Send code and codeVerifier to your server, which exchanges them at /oauth2/token with its client secret.`}
          />
          <div className="prose-body">
            <p>
              What a claim means: <code>age_verified</code>, <code>location_verified</code> and{' '}
              <code>identity_verified</code> are <code>true</code> only for a fact the person has proven and
              that has not expired, and <code>false</code> when it is <em>not proven</em>. The facts
              themselves — <code>age_over_NN</code>, <code>verification_timestamp</code>,{' '}
              <code>location</code>, <code>verified_claims</code> — are present only when proven and absent
              otherwise: Attestly never states that someone is under an age, so there is no{' '}
              <code>age_over_18: false</code>. The consent screen tells the person what is unproven and offers
              to verify first.
            </p>
          </div>
        </DocSection>

        <DocSection id="oidc-libs" title="OpenID Connect libraries">
          <div className="prose-body">
            <p>Any certified relying-party library can talk to the appliance&apos;s issuer:</p>
            <ul>
              <li>
                Node.js: <code>openid-client</code> (server) or <code>oauth4webapi</code>
              </li>
              <li>
                Python: <code>Authlib</code>; Java: <code>Nimbus OAuth 2.0 SDK</code>; .NET:{' '}
                <code>Microsoft.AspNetCore.Authentication.OpenIdConnect</code>; Go:{' '}
                <code>coreos/go-oidc</code>; PHP: <code>league/oauth2-client</code>
              </li>
            </ul>
            <p>
              Issuer: <code>{origin}/oauth2</code>. Use the authorization code flow with PKCE (S256) — it is
              required.
            </p>
          </div>
          <div className="mt-4">
            <CodeBlock label="Node.js (openid-client) — age check" code={quickStartSample(origin)} />
          </div>
        </DocSection>

        <DocSection id="rest" title="Plain HTTP" className="mt-12">
          <div className="prose-body">
            <p>The same flow without a library. Exchange the code on your server:</p>
          </div>
          <CodeBlock
            label="Token request (curl)"
            code={`curl -X POST ${origin}/oauth2/token \\
  -u "$CLIENT_ID:$CLIENT_SECRET" \\
  -d grant_type=authorization_code \\
  -d code="$CODE" \\
  -d redirect_uri=https://shop.example.com/callback \\
  -d code_verifier="$CODE_VERIFIER"`}
          />
          <div className="mt-4">
            <CodeBlock
              label="Token response"
              code={`{
  "access_token": "…",
  "token_type": "Bearer",
  "expires_in": 3600,
  "scope": "openid basic_info email AGE_18",
  "id_token": "…"
}`}
            />
          </div>
          <div className="prose-body">
            <p>Then read the claims the person approved:</p>
          </div>
          <CodeBlock
            label="User info (curl)"
            code={`curl ${origin}/oauth2/userinfo -H "Authorization: Bearer $ACCESS_TOKEN"`}
          />
          <div className="mt-4">
            <CodeBlock
              label="User info response"
              code={`{
  "sub": "4f0c…",
  "email": "alex@example.com",
  "email_verified": true,
  "age_verified": true,
  "age_threshold": 18,
  "age_over_18": true,
  "location_verified": true,
  "location": { "country": "GB", "state": null },
  "verification_timestamp": "2025-07-14T00:00:00Z"
}`}
            />
          </div>
        </DocSection>

        <DocSection id="rest-api" title="REST API" className="mt-12">
          <div className="prose-body">
            <p>
              JSON over HTTPS under <code>{origin}/api/v1</code>. Each endpoint, with its request and response
              schemas, is in the{' '}
              <Link to="/docs/api" className="font-medium text-indigo-700 underline">
                API reference
              </Link>
              , generated from the server&apos;s own validation schemas; the machine-readable OpenAPI 3.1
              document is at <code>/api/v1/openapi.json</code> — feed it to any OpenAPI code generator for a
              typed client in your language.
            </p>
          </div>
          <CodeBlock
            label="Sign in and read the profile (curl)"
            code={`TOKEN=$(curl -s ${origin}/api/v1/users/login \\
  -H 'Content-Type: application/json' \\
  -d '{"email":"alex@example.com","password":"…","rememberMe":false}' | jq -r .access_token)

curl ${origin}/api/v1/users/profile -H "Authorization: Bearer $TOKEN"`}
          />
          <div className="mt-4">
            <CodeBlock
              label="Error envelope"
              code={`HTTP/1.1 422 Unprocessable Entity
{
  "detail": "Password must be at least 8 characters",
  "code": "validation.failed",
  "errors": [{ "path": "password", "message": "Password must be at least 8 characters" }],
  "request_id": "6f1d…"
}`}
            />
          </div>
        </DocSection>

        <DocSection id="webhook-sample" title="Webhook payload" className="mt-12">
          <div className="prose-body">
            <p>
              Deliveries are signed; see{' '}
              <Link to="/docs/guide" hash="webhooks" className="font-medium text-indigo-700 underline">
                verifying webhooks
              </Link>
              .
            </p>
          </div>
          <CodeBlock
            label="verification.completed"
            code={`{
  "event": "verification.completed",
  "timestamp": "2025-07-14T09:12:00Z",
  "data": {
    "user_id": "4f0c…",
    "partner_id": "a81e…",
    "verification_type": "age",
    "status": "approved",
    "scopes_granted": ["basic_info", "AGE_18"],
    "created_at": "2025-07-14T09:11:52Z"
  }
}`}
          />
        </DocSection>
      </div>
    </PublicPage>
  );
}
