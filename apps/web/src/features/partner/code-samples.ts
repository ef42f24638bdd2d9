import type { SiteView } from '@attestly/contracts';

/** Code shown on /partner/integration and /partner/demo, generated for the partner's own site. */
export interface SampleContext {
  baseUrl: string;
  site: Pick<SiteView, 'client_id' | 'client_type' | 'redirect_uris' | 'allowed_scopes'> | null;
  keyPrefix: string | null;
}

const scopesOf = (context: SampleContext) =>
  (context.site?.allowed_scopes ?? ['basic_info', 'AGE_18']).filter((scope) => scope !== 'basic_info');

export function browserSample(
  context: SampleContext,
  popup: { width?: number; height?: number; title?: string; scopes?: string[]; redirectUri?: string } = {},
): string {
  const scopes = popup.scopes ?? scopesOf(context);
  return `import { openConsentPopup } from '@attestly/sdk/browser';

const result = await openConsentPopup({
  baseUrl: '${context.baseUrl}',
  clientId: '${context.site?.client_id ?? 'YOUR_CLIENT_ID'}',
  redirectUri: '${popup.redirectUri ?? context.site?.redirect_uris[0] ?? 'https://shop.example.com/callback'}',
  scopes: ${JSON.stringify(scopes)},
  width: ${popup.width ?? 500},
  height: ${popup.height ?? 700},
  title: ${JSON.stringify(popup.title ?? 'Verify with Attestly')},
});
// Send result.code and result.codeVerifier to your server, which exchanges them at /oauth2/token.`;
}

export function serverSample(context: SampleContext): string {
  const key = context.keyPrefix ? `${context.keyPrefix}…` : 'atk_live_…';
  return `import { Attestly } from '@attestly/sdk';

// ${key} — keep the key in your server's configuration, never in the browser.
const attestly = new Attestly({
  apiKey: process.env.ATTESTLY_API_KEY,
  environment: '${context.keyPrefix?.startsWith('atk_test_') ? 'sandbox' : 'production'}',
  baseUrl: '${context.baseUrl}',
});

// userId: the sub your site received when the user signed in with Attestly (AGE_18 scope granted).
const result = await attestly.verifyAge({ userId, ageThreshold: 18 });
if (result.verified) {
  // The user proved they are 18 or over. Otherwise send them to result.verify_url.
}

// Or check an access token your site received.
const token = await attestly.validateToken(accessToken);`;
}

export function restSample(context: SampleContext): string {
  const redirect = context.site?.redirect_uris[0] ?? 'https://shop.example.com/callback';
  const clientId = context.site?.client_id ?? 'YOUR_CLIENT_ID';
  const scope = ['openid', 'basic_info', ...scopesOf(context)].join('%20');
  const auth =
    context.site?.client_type === 'public'
      ? `  -d client_id=${clientId} \\\n`
      : `  -u '${clientId}:YOUR_CLIENT_SECRET' \\\n`;
  return `# 1. Send the browser to the authorization endpoint (PKCE S256 and state are required)
${context.baseUrl}/oauth2/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(redirect)}&response_type=code&scope=${scope}&state=STATE&code_challenge=CHALLENGE&code_challenge_method=S256

# 2. Exchange the code on your server
curl -X POST ${context.baseUrl}/oauth2/token \\
${auth}  -d grant_type=authorization_code -d code=CODE \\
  -d redirect_uri=${redirect} -d code_verifier=VERIFIER

# 3. Read the claims the user agreed to share
curl ${context.baseUrl}/oauth2/userinfo -H 'Authorization: Bearer ACCESS_TOKEN'

# Server to server, with your API key
curl -X POST ${context.baseUrl}/api/v1/partners/validate-token \\
  -H 'X-API-Key: ${context.keyPrefix ?? 'atk_live_'}…' -H 'Content-Type: application/json' \\
  -d '{"token": "ACCESS_TOKEN"}'
curl ${context.baseUrl}/api/v1/partners/stats -H 'X-API-Key: ${context.keyPrefix ?? 'atk_live_'}…'`;
}

export function webhookSample(): string {
  return `import express from 'express';
import { verifyWebhook } from '@attestly/sdk';

const app = express();

// Events: verification.completed, verification.failed, token.revoked, token.expired
app.post('/attestly/webhook', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = verifyWebhook(req.get('Attestly-Signature'), req.body, process.env.ATTESTLY_WEBHOOK_SECRET);
  } catch {
    return res.sendStatus(400); // a bad signature or a stale timestamp
  }
  // event.event, event.data.user_id (pairwise), event.data.status …
  res.sendStatus(204);
});

app.listen(3000);`;
}

/**
 * The one command that installs the SDK from this appliance: the versioned line of /sdk/index.json once known (a
 * pinned address for package.json), else the stable link that redirects to it.
 */
export const installSample = (baseUrl: string, install?: string) =>
  install ?? `npm install ${baseUrl}/sdk/attestly-sdk-latest.tgz`;
