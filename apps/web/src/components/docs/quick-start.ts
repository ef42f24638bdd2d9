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
