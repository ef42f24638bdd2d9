/**
 * Wallet credentials benchmark (issue 24): issuing a batch of 30 credentials at the credential endpoint (each format;
 * the wallet's 30 proofs are made before the clock starts) and verifying one presentation at the response URI
 * (SD-JWT VC with key binding; mdoc with the device signature), over HTTP against the in-process server on a fresh
 * SQLite database. `npm run bench` calls runWalletBench; or run this file alone with tsx.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importJWK, SignJWT } from 'jose';
import { createApp } from '../src/app';
import { bootstrap } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { createOidc } from '../src/oidc';
import { freePort } from '../test/http';
import {
  holderKey,
  mdocPresentation,
  postPresentation,
  presentSdJwt,
  readPresentationRequest,
  type HolderKey,
} from '../test/wallet-helpers';

const ROUNDS = 7;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const round = (value: number) => Math.round(value * 10) / 10;
const PRE_AUTH = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

export async function runWalletBench(): Promise<Record<string, number>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-wallet-bench-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    ATTESTLY_DATA_DIR: dataDir,
    ATTESTLY_PUBLIC_URL: baseUrl,
    ATTESTLY_PASSWORD_COST: '10',
    ATTESTLY_VISION: 'false',
    LOG_LEVEL: 'silent',
  });
  const deps = await bootstrap(config, createLogger(config));
  const oidc = await createOidc(deps, { keyCheckIntervalMs: 0 });
  const { app, services } = createApp(deps, { oidc });
  const server = app.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  try {
    const user = await deps.db.models.User.create({
      email: 'wallet-bench@example.com',
      password_hash: 'x',
      full_name: 'Bench',
    } as never);
    const now = new Date();
    const until = new Date(now.getTime() + 365 * 86_400_000);
    await deps.db.models.Verification.create({
      user_id: user.id,
      verification_type: 'age',
      verification_method: 'document',
      status: 'approved',
      confidence_score: 1,
      age_threshold: 18,
      message: 'bench',
      result_details: { proves: { minAge: 30 } },
      document_analysis: null,
      subject_fingerprint: null,
      partner_id: null,
      site_id: null,
      reviewed_at: null,
      reviewed_by: null,
      expires_at: until,
      created_at: now,
      updated_at: now,
    });
    await user.update({ proven_min_age: 30, age_verified_at: now, age_verified_until: until });
    const { token } = await services.sessions.issue('user', user.id, {
      remember: false,
      ip: null,
      userAgent: null,
    });

    async function accessToken(): Promise<string> {
      const offer = await fetch(`${baseUrl}/api/v1/wallet/offers`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ same_device: true }),
      });
      const offerUri = new URL(((await offer.json()) as { offer_url: string }).offer_url).searchParams.get(
        'credential_offer_uri',
      ) as string;
      const resolved = (await (await fetch(offerUri)).json()) as {
        grants: Record<string, Record<string, string>>;
      };
      const answer = await fetch(`${baseUrl}/oauth2/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: PRE_AUTH,
          'pre-authorized_code': resolved.grants[PRE_AUTH]!['pre-authorized_code']!,
        }),
      });
      return ((await answer.json()) as { access_token: string }).access_token;
    }

    async function batch(configuration: string, keys: HolderKey[]) {
      const { c_nonce } = (await (await fetch(`${baseUrl}/oauth2/challenge`, { method: 'POST' })).json()) as {
        c_nonce: string;
      };
      const proofs = await Promise.all(
        keys.map(async (key) =>
          new SignJWT({ nonce: c_nonce })
            .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: key.publicJwk })
            .setAudience(`${baseUrl}/oauth2`)
            .setIssuedAt()
            .sign(await importJWK(key.privateJwk, 'ES256')),
        ),
      );
      const bearer = await accessToken();
      const started = performance.now();
      const response = await fetch(`${baseUrl}/oauth2/credential`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
        body: JSON.stringify({ credential_configuration_id: configuration, proofs: { jwt: proofs } }),
      });
      const body = (await response.json()) as { credentials: Array<{ credential: string }> };
      const elapsed = performance.now() - started;
      if (response.status !== 200 || body.credentials.length !== keys.length)
        throw new Error(`issuance failed: ${response.status}`);
      return { elapsed, credentials: body.credentials.map((entry) => entry.credential) };
    }

    const figures: Record<string, number[]> = { sd_jwt: [], mdoc: [], verify_sd_jwt: [], verify_mdoc: [] };
    const keys = await Promise.all(Array.from({ length: 30 }, () => holderKey()));
    let sdJwts: string[] = [];
    let mdocs: string[] = [];
    for (let index = 0; index < ROUNDS; index++) {
      const sd = await batch('age_sd_jwt', keys);
      const md = await batch('proof_of_age', keys);
      figures.sd_jwt!.push(sd.elapsed);
      figures.mdoc!.push(md.elapsed);
      sdJwts = sd.credentials;
      mdocs = md.credentials;
    }

    for (let index = 0; index < ROUNDS; index++) {
      const started = await oidc.wallet.presentations.start(`bench-interaction-${index}`, 18, 'direct_post');
      const request = readPresentationRequest(started.wallet_url);
      const vp = await presentSdJwt(sdJwts[index] as string, keys[index] as HolderKey, request);
      const at = performance.now();
      const answer = await postPresentation(request, { attestly_age: [vp] });
      figures.verify_sd_jwt!.push(performance.now() - at);
      if (answer.status !== 200) throw new Error('SD-JWT presentation refused');

      const mdocStarted = await oidc.wallet.presentations.start(`bench-mdoc-${index}`, 18, 'direct_post');
      const mdocRequest = readPresentationRequest(mdocStarted.wallet_url);
      const presentation = await mdocPresentation(
        mdocs[index] as string,
        keys[index] as HolderKey,
        mdocRequest,
      );
      const mdocAt = performance.now();
      const mdocAnswer = await postPresentation(mdocRequest, { eu_av_mdoc: [presentation] });
      figures.verify_mdoc!.push(performance.now() - mdocAt);
      if (mdocAnswer.status !== 200) throw new Error('mdoc presentation refused');
    }
    return {
      issue_batch_30_sd_jwt_ms: round(median(figures.sd_jwt!)),
      issue_batch_30_mdoc_ms: round(median(figures.mdoc!)),
      verify_presentation_sd_jwt_ms: round(median(figures.verify_sd_jwt!)),
      verify_presentation_mdoc_ms: round(median(figures.verify_mdoc!)),
      rounds: ROUNDS,
    };
  } finally {
    oidc.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await deps.db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runWalletBench()
    .then((figures) => {
      console.table(Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, { value }])));
      console.log(JSON.stringify({ wallet: figures }));
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
