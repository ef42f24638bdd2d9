/** The /docs quick-start: a partner site asking "over 18?" with a certified OpenID Connect library. */
export function quickStartSample(origin: string): string {
  return `import * as client from 'openid-client';

// Your site's credentials come from the partner portal (Management → Sites).
const config = await client.discovery(
  new URL('${origin}/oauth2'),
  process.env.ATTESTLY_CLIENT_ID,
  process.env.ATTESTLY_CLIENT_SECRET,
);

// 1. Send the visitor to Attestly, asking only for what you need.
const codeVerifier = client.randomPKCECodeVerifier();
const state = client.randomState();
const authorizationUrl = client.buildAuthorizationUrl(config, {
  redirect_uri: 'https://shop.example.com/callback',
  scope: 'openid basic_info AGE_18',
  code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
  code_challenge_method: 'S256',
  state,
});
// Keep codeVerifier and state in the visitor's session, then redirect to authorizationUrl.

// 2. Back on your callback URL: exchange the code and read the yes or no.
const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
  pkceCodeVerifier: codeVerifier,
  expectedState: state,
});
const claims = await client.fetchUserInfo(config, tokens.access_token, tokens.claims().sub);
const verified = claims.age_over_18 === true;`;
}

/**
 * The /docs quick start as spec 01 §1 describes it: the SDK's client initialised with an API key and an environment,
 * a verify-age call with a user id and a method, and a boolean result. The method shown is the credit card only
 * where this installation offers card checks; the card itself is entered on Attestly's page, never sent from here.
 */
export function sdkQuickStartSample(origin: string, cardCheck: boolean): string {
  const method = cardCheck ? 'credit_card' : 'document';
  return `// npm install ${origin}/sdk/attestly-sdk-latest.tgz
import { Attestly } from '@attestly/sdk';

const attestly = new Attestly({
  apiKey: process.env.ATTESTLY_API_KEY, // atk_test_… in the sandbox, atk_live_… in production
  environment: 'sandbox', // or 'production'
  baseUrl: '${origin}',
});

// userId: the sub your site received when the visitor signed in with Attestly (scope AGE_18).
const result = await attestly.verifyAge({ userId, ageThreshold: 18, method: '${method}' });
if (result.verified) {
  // 18 or over, proven by ${cardCheck ? 'an issuer-confirmed credit card' : 'an identity document'}.
} else {
  // Not proven yet: send the visitor to result.verify_url.
}`;
}

/**
 * The authorization request a partner site sends the browser to, as the guide shows it; `acrValues` adds the
 * path the site expects (the wallet's, issue 24 item 6).
 */
export function authorizationRequestSample(origin: string, acrValues?: string): string {
  return [
    `${origin}/oauth2/authorize?client_id=YOUR_CLIENT_ID`,
    '  &redirect_uri=https%3A%2F%2Fshop.example.com%2Fcallback',
    '  &response_type=code',
    '  &scope=openid%20basic_info%20AGE_18',
    ...(acrValues ? [`  &acr_values=${encodeURIComponent(acrValues)}`] : []),
    '  &state=RANDOM_STATE',
    '  &code_challenge=BASE64URL_SHA256_OF_VERIFIER',
    '  &code_challenge_method=S256',
  ].join('\n');
}
