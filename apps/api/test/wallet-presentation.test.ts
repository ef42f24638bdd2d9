import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createHash } from 'node:crypto';
import { CompactEncrypt, importJWK, SignJWT } from 'jose';
import { issueMdoc, issueSdJwt } from '../src/modules/users/wallet/credentials';
import { createTestApp, signUp, type TestApp } from './helpers';
import {
  Browser,
  createSite,
  pkce,
  registerPartner,
  relyingParty,
  uidFrom,
  type CreatedSite,
} from './oidc-helpers';
import {
  createOffer,
  foreignIssuer,
  holderKey,
  mdocPresentation,
  postPresentation,
  presentSdJwt,
  proveAge,
  readPresentationRequest,
  receiveCredentials,
  type HolderKey,
} from './wallet-helpers';

let t: TestApp;
let site: CreatedSite;
let sdJwts: { credential: string; key: HolderKey }[] = [];
let mdocs: { credential: string; key: HolderKey }[] = [];

beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  const partner = await registerPartner(t);
  site = await createSite(t, partner.token, { allowed_scopes: ['basic_info', 'email', 'AGE_18', 'AGE_21'] });
  const user = await signUp(t);
  await proveAge(t, user.user.id, { minAge: 22 });
  const offer = await createOffer(t, user.token, { same_device: true });
  const { received } = await receiveCredentials(offer.body.offer_url, { count: 8 });
  sdJwts = received.age_sd_jwt!.credentials.map((credential, index) => ({
    credential,
    key: received.age_sd_jwt!.keys[index]!,
  }));
  mdocs = received.proof_of_age!.credentials.map((credential, index) => ({
    credential,
    key: received.proof_of_age!.keys[index]!,
  }));
});
afterAll(async () => {
  await t?.close();
});

/** A partner's sign-in up to the Attestly sign-in screen, then "Use a wallet". */
async function startSignIn(
  scope = 'openid basic_info AGE_18',
  responseMode = 'direct_post',
  extra: Record<string, string> = {},
) {
  const config = await relyingParty(t, site);
  const { verifier, challenge } = pkce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: site.redirect_uris[0] as string,
    scope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  const browser = new Browser();
  let location = url.href;
  while (!location.includes('/oauth/login')) {
    const response = await browser.fetch(location);
    location = new URL(response.headers.get('location') as string, location).href;
  }
  const uid = uidFrom(location);
  const started = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}/wallet`, 'POST', {
    response_mode: responseMode,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const request = readPresentationRequest(String(started.body.wallet_url));
  return { config, verifier, state, browser, uid, request };
}

/** The browser finishes the sign-in and the partner exchanges its code. */
async function finish(flow: Awaited<ReturnType<typeof startSignIn>>, responseCode?: string) {
  const done = await flow.browser.json(
    `${t.baseUrl}/api/v1/oauth/interactions/${flow.uid}/wallet/finish`,
    'POST',
    responseCode ? { response_code: responseCode } : {},
  );
  if (done.status !== 200) return { status: done.status, body: done.body };
  let location = String(done.body.redirect_to);
  while (location.startsWith(t.baseUrl)) {
    const response = await flow.browser.fetch(location);
    location = new URL(response.headers.get('location') as string, location).href;
  }
  const tokens = await client.authorizationCodeGrant(flow.config, new URL(location), {
    pkceCodeVerifier: flow.verifier,
    expectedState: flow.state,
  });
  const userinfo = await client.fetchUserInfo(flow.config, tokens.access_token, client.skipSubjectCheck);
  return { status: 200, tokens, claims: tokens.claims()!, userinfo };
}

const DAY = 86_400_000;

/** A KB-JWT over exactly the given SD-JWT with disclosures (RFC 9901 §4.3): what any holder can compute. */
async function keyBound(presented: string, key: HolderKey, request: { clientId: string; nonce: string }) {
  const sdHash = createHash('sha256').update(presented).digest('base64url');
  const kb = await new SignJWT({ aud: request.clientId, nonce: request.nonce, sd_hash: sdHash })
    .setProtectedHeader({ alg: 'ES256', typ: 'kb+jwt' })
    .setIssuedAt()
    .sign(await importJWK(key.privateJwk, 'ES256'));
  return `${presented}${kb}`;
}
const today = () => new Date(Math.floor(Date.now() / DAY) * DAY);

describe('"Use a wallet" on the sign-in of a partner asking for an age (OpenID4VP)', () => {
  it('signs the partner in with age_over_18 from an Attestly SD-JWT VC, under a subject random per presentation', async () => {
    const subjects: string[] = [];
    const usersBefore = await t.db.models.User.count();
    for (const { credential, key } of sdJwts.slice(0, 2)) {
      const flow = await startSignIn();
      expect(flow.request.clientId).toBe(`redirect_uri:${flow.request.responseUri}`);
      expect(flow.request.dcql.credentials.map((query) => query.id)).toEqual([
        'attestly_age',
        'eu_pid_sd_jwt',
        'eu_av_mdoc',
        'eu_pid_mdoc',
      ]);
      const answer = await postPresentation(flow.request, {
        attestly_age: [await presentSdJwt(credential, key, flow.request)],
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const responseCode = new URL(answer.body.redirect_uri as string).searchParams.get(
        'response_code',
      ) as string;
      const result = await finish(flow, responseCode);
      expect(result.status).toBe(200);
      if (!('claims' in result)) throw new Error('no tokens');
      expect(result.userinfo).toMatchObject({ age_verified: true, age_over_18: true, age_threshold: 18 });
      expect(Object.keys(result.userinfo as object).sort()).toEqual([
        'age_over_18',
        'age_threshold',
        'age_verified',
        'sub',
      ]);
      subjects.push(String(result.userinfo?.sub));
    }
    expect(subjects[0]).not.toBe(subjects[1]);
    // No account is created: the subject is the pairwise form of a one-time account id.
    expect(await t.db.models.User.count()).toBe(usersBefore);
  });

  it('accepts the EU AV mdoc with the device signature over the OpenID4VP session transcript, encrypted (direct_post.jwt)', async () => {
    const flow = await startSignIn('openid basic_info AGE_18', 'direct_post.jwt');
    const { credential, key } = mdocs[0]!;
    const encryptionKey = flow.request.clientMetadata.jwks!.keys[0]!;
    const jwe = await new CompactEncrypt(
      new TextEncoder().encode(
        JSON.stringify({
          vp_token: { eu_av_mdoc: [await mdocPresentation(credential, key, flow.request)] },
          state: flow.request.state,
        }),
      ),
    )
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM', kid: encryptionKey.kid })
      .encrypt(await importJWK(encryptionKey, 'ECDH-ES'));
    const response = await fetch(flow.request.responseUri, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ response: jwe }),
    });
    expect(response.status).toBe(200);
    const { redirect_uri } = (await response.json()) as { redirect_uri: string };
    const result = await finish(flow, new URL(redirect_uri).searchParams.get('response_code') as string);
    if (!('userinfo' in result)) throw new Error(JSON.stringify(result));
    expect(result.userinfo).toMatchObject({ age_over_18: true });
  });

  it('accepts the EU AV mdoc cross-device: the browser that started the sign-in finishes it, once', async () => {
    const flow = await startSignIn('openid basic_info AGE_18');
    const { credential, key } = mdocs[1]!;
    const answer = await postPresentation(flow.request, {
      eu_av_mdoc: [await mdocPresentation(credential, key, flow.request)],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const status = await flow.browser.json(
      `${t.baseUrl}/api/v1/oauth/interactions/${flow.uid}/wallet`,
      'GET',
    );
    expect(status.body.status).toBe('answered');
    const result = await finish(flow);
    if (!('userinfo' in result)) throw new Error(JSON.stringify(result));
    expect(result.userinfo?.age_over_18).toBe(true);
    // Once only.
    expect((await finish(flow)).status).toBe(404);
  });

  it('accepts an EU AV credential from an imported trust anchor and refuses one from an unknown issuer', async () => {
    const trusted = await foreignIssuer();
    const unknown = await foreignIssuer();
    await t.oidc!.wallet.keys.importAnchors(trusted.rootPem, 'test AV provider');
    for (const [issuer, expected] of [
      [trusted, 200],
      [unknown, 400],
    ] as const) {
      const key = await holderKey();
      const credential = await issueMdoc({
        issuer: 'https://av.example',
        facts: { 18: true },
        issuedDay: today(),
        expiresDay: new Date(today().getTime() + 30 * DAY),
        holderKey: key.publicJwk as never,
        signer: issuer.signer,
      });
      const flow = await startSignIn();
      const answer = await postPresentation(flow.request, {
        eu_av_mdoc: [await mdocPresentation(credential, key, flow.request)],
      });
      expect(answer.status).toBe(expected);
    }
  });

  it('refuses, always with the same answer, every presentation that does not prove the age here and now', async () => {
    const refusal = {
      error: 'invalid_request',
      error_description: 'The wallet presentation was not accepted.',
    };
    const attempts: Array<
      [string, (flow: Awaited<ReturnType<typeof startSignIn>>) => Promise<Record<string, string[]>>]
    > = [
      [
        // The holder is the forger here: a credential saying "not 18", its disclosure swapped for one saying "18",
        // with a key binding computed over the forgery. Only the digests the issuer signed can catch it.
        'tampered disclosure',
        async (flow) => {
          const issuer = await foreignIssuer();
          await t.oidc!.wallet.keys.importAnchors(issuer.rootPem);
          const key = await holderKey();
          const credential = await issueSdJwt({
            issuer: `${t.baseUrl}/oauth2`,
            facts: { 16: true, 18: false },
            issuedDay: today(),
            expiresDay: new Date(today().getTime() + 30 * DAY),
            holderKey: key.publicJwk as never,
            signer: issuer.signer,
          });
          const [jwt, ...disclosures] = credential.split('~').filter(Boolean);
          const kept = disclosures.filter(
            (disclosure) => JSON.parse(Buffer.from(disclosure, 'base64url').toString())[1] !== '18',
          );
          const forged = Buffer.from(JSON.stringify(['c2FsdHNhbHRzYWx0', '18', true])).toString('base64url');
          return {
            attestly_age: [await keyBound(`${jwt}~${[...kept, forged].join('~')}~`, key, flow.request)],
          };
        },
      ],
      [
        'wrong audience',
        async (flow) => ({
          attestly_age: [
            await presentSdJwt(sdJwts[3]!.credential, sdJwts[3]!.key, {
              ...flow.request,
              clientId: 'redirect_uri:https://evil.example/cb',
            }),
          ],
        }),
      ],
      [
        'stale key binding',
        async (flow) => ({
          attestly_age: [
            await presentSdJwt(
              sdJwts[4]!.credential,
              sdJwts[4]!.key,
              flow.request,
              ['18'],
              Math.floor(Date.now() / 1000) - 3600,
            ),
          ],
        }),
      ],
      [
        'not the requested age',
        async (flow) => ({
          attestly_age: [await presentSdJwt(sdJwts[5]!.credential, sdJwts[5]!.key, flow.request, ['16'])],
        }),
      ],
      [
        'credential presented under a query for another type',
        async (flow) => ({
          eu_pid_sd_jwt: [await presentSdJwt(sdJwts[6]!.credential, sdJwts[6]!.key, flow.request)],
        }),
      ],
    ];
    for (const [label, build] of attempts) {
      const flow = await startSignIn();
      const answer = await postPresentation(flow.request, await build(flow));
      expect(answer, label).toEqual({ status: 400, body: refusal });
      expect((await finish(flow)).status, label).toBe(404);
    }
  });

  it('refuses a replayed presentation, a second answer to one request, and an expired credential', async () => {
    const first = await startSignIn();
    const presented = await presentSdJwt(sdJwts[7]!.credential, sdJwts[7]!.key, first.request);
    expect((await postPresentation(first.request, { attestly_age: [presented] })).status).toBe(200);
    expect((await postPresentation(first.request, { attestly_age: [presented] })).status).toBe(400);
    const second = await startSignIn();
    expect((await postPresentation(second.request, { attestly_age: [presented] })).status).toBe(400);

    const later = await startSignIn();
    t.clock.advance(120 * DAY);
    try {
      const answer = await postPresentation(later.request, {
        attestly_age: [await presentSdJwt(sdJwts[0]!.credential, sdJwts[0]!.key, later.request)],
      });
      expect(answer.status).toBe(400);
    } finally {
      t.clock.advance(-120 * DAY);
    }
  });

  it('finishes only in the browser that started the sign-in, and tells the screen when the site asked for a wallet', async () => {
    const flow = await startSignIn('openid basic_info AGE_18', 'direct_post', {
      acr_values: 'urn:attestly:acr:wallet',
    });
    const status = await flow.browser.json(
      `${t.baseUrl}/api/v1/oauth/interactions/${flow.uid}/wallet`,
      'GET',
    );
    expect(status.body).toMatchObject({ status: 'pending', wallet_requested: true });
    const answer = await postPresentation(flow.request, {
      attestly_age: [await presentSdJwt(sdJwts[1]!.credential, sdJwts[1]!.key, flow.request)],
    });
    const responseCode = new URL(answer.body.redirect_uri as string).searchParams.get(
      'response_code',
    ) as string;
    const stranger = await new Browser().json(
      `${t.baseUrl}/api/v1/oauth/interactions/${flow.uid}/wallet/finish`,
      'POST',
      { response_code: responseCode },
    );
    expect(stranger.status).toBe(404);
    const wrongCode = await flow.browser.json(
      `${t.baseUrl}/api/v1/oauth/interactions/${flow.uid}/wallet/finish`,
      'POST',
      { response_code: 'x'.repeat(32) },
    );
    expect(wrongCode.status).toBe(404);
    expect((await finish(flow, responseCode)).status).toBe(200);

    const plain = await startSignIn();
    const plainStatus = await plain.browser.json(
      `${t.baseUrl}/api/v1/oauth/interactions/${plain.uid}/wallet`,
      'GET',
    );
    expect(plainStatus.body.wallet_requested).toBe(false);
  });

  it('refuses a credential that states over 21 but not over 18, even from a trusted issuer', async () => {
    const trusted = await foreignIssuer();
    await t.oidc!.wallet.keys.importAnchors(trusted.rootPem);
    const key = await holderKey();
    const credential = await issueSdJwt({
      issuer: 'https://av.example',
      facts: { 18: false, 21: true },
      issuedDay: today(),
      expiresDay: new Date(today().getTime() + 30 * DAY),
      holderKey: key.publicJwk as never,
      signer: trusted.signer,
    });
    const flow = await startSignIn();
    const answer = await postPresentation(flow.request, {
      attestly_age: [await presentSdJwt(credential, key, flow.request, ['18', '21'])],
    });
    expect(answer.status).toBe(400);
  });
});
