import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { expect } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { createAdmin, signInAdmin } from './admin-helpers';
import { createTestApp, randomClientIp, type TestApp } from './helpers';
import {
  Browser,
  createSite,
  fullFlow,
  pkce,
  registerPartner,
  relyingParty,
  uidFrom,
  verifiedUser,
  type CreatedSite,
} from './oidc-helpers';
import { startReceiver } from './webhook-receiver';

const DAY = 86_400_000;
const DAYS = 3;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Signs a partner in again: a session lasts 12 hours of the test clock, the installation is built over days. */
async function partnerToken(t: TestApp, partner: { email: string; password: string }): Promise<string> {
  const login = await t.request
    .post('/api/v1/partners/login')
    .set('X-Forwarded-For', randomClientIp())
    .send({ email: partner.email, password: partner.password })
    .expect(200);
  return login.body.access_token as string;
}

/** Takes a user through sign-in up to the site's consent screen; returns the interaction uid (X-Attestly-Interaction). */
async function interactionAtConsent(
  t: TestApp,
  site: CreatedSite,
  user: { email: string; password: string },
): Promise<string> {
  const config = await relyingParty(t, site);
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: site.redirect_uris[0] as string,
    scope: 'openid basic_info AGE_18',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    state: client.randomState(),
  });
  const browser = new Browser();
  let location = url.href;
  for (let hop = 0; hop < 8 && !location.includes('/oauth/consent'); hop += 1) {
    if (location.includes('/oauth/login')) {
      const login = await browser.json(
        `${t.baseUrl}/api/v1/oauth/interactions/${uidFrom(location)}/login`,
        'POST',
        user,
      );
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      location = String(login.body.redirect_to);
      continue;
    }
    const response = await browser.fetch(location);
    location = new URL(response.headers.get('location') as string, location).href;
  }
  return uidFrom(location);
}

/**
 * A check that fails, sent from a partner's sign-in flow (attributed to it): a location check from a British
 * address by someone whose profile declares France.
 */
async function failedCheck(t: TestApp, user: { token: string; user: { id: string } }, interaction: string) {
  await t.db.models.User.update({ country: 'FR' }, { where: { id: user.user.id } });
  await t.request
    .post('/api/v1/users/verify/location')
    .set(auth(user.token))
    .set('X-Attestly-Interaction', interaction)
    .set('X-Forwarded-For', '81.2.69.160')
    .expect(201);
}

/**
 * A realistic installation, built through the app's routes and services on whatever database `env` names, over
 * three days of the app's clock: users with proven facts, two partners with sites (one a sandbox site), grants and
 * tokens from real OpenID Connect flows, verifications attributed to partners on each day (so the statistics
 * triggers have filled partner_stats_daily and partner_stats_countries), a case approved by a reviewer days later
 * (the status-change trigger), review media kept, API-key calls (measured response times, which only the roll-up
 * holds), webhooks with deliveries and attempts, a revoked grant, administrators with TOTP and backup codes, and
 * the audit chain all of this wrote.
 */
export async function realisticInstallation(env: Record<string, string>) {
  // The app's clock starts days back and moves forward to half an hour before now: the provider's own clock
  // (interactions, tokens) stays real, so an interaction begun "three days ago" is still open when the verification
  // names it.
  const clock = new ManualClock(new Date(Date.now() - DAYS * DAY - 1_800_000));
  // The receiver listens first: an allowlist entry names its host and port.
  const receiver = await startReceiver({ now: () => clock.now() });
  const t = await createTestApp({
    withOidc: true,
    clock,
    env: { ATTESTLY_WEBHOOK_ALLOWLIST: new URL(receiver.url).host, ...env },
  });
  try {
    const reviewer = await createAdmin(t);
    await createAdmin(t);
    const acme = await registerPartner(t, { company_name: 'Acme Games' });
    const other = await registerPartner(t, { company_name: 'Blue Wine Shop' });
    const site = await createSite(t, acme.token, { client_type: 'confidential' });
    const publicSite = await createSite(t, other.token, {
      site_name: 'Wine App',
      client_type: 'public',
      redirect_uris: ['https://wine.example.com/callback'],
    });
    const sandboxSite = await createSite(t, acme.token, {
      site_name: 'Acme Dev',
      redirect_uris: ['http://localhost:5173/callback'],
    });
    const webhook = await t.request
      .post('/api/v1/partners/webhooks')
      .set(auth(acme.token))
      .send({ url: receiver.url, events: ['verification.completed', 'verification.failed', 'token.revoked'] })
      .expect(201);
    receiver.state.secret = webhook.body.secret as string;
    const apiKey = await t.request
      .post('/api/v1/partners/api-keys')
      .set(auth(acme.token))
      .send({ environment: 'live' })
      .expect(201);

    const countries = ['GB', 'FR', 'DE'];
    let pendingCase: { id: string } | null = null;
    for (let day = 0; day < DAYS; day += 1) {
      const acmeToken = day === 0 ? acme.token : await partnerToken(t, acme);
      const country = countries[day] as string;
      // An adult who signs in to Acme's site, verifies from its consent screen (attributed), and consents.
      const adult = await verifiedUser(t, { proven_min_age: 18, location_country: country });
      const uid = await interactionAtConsent(t, site, adult);
      await failedCheck(t, adult, uid);
      await t.services.verifications.record(
        {
          userId: adult.user.id,
          type: 'age',
          method: 'document',
          status: 'approved',
          confidence: 0.97,
          ageThreshold: 18,
          message: 'Your document proves you are over 18.',
          details: { decision: 'mrz' },
          proves: { minAge: 18 },
        },
        { ip: randomClientIp(), userAgent: 'fixture', interaction: uid },
      );
      const flow = await fullFlow(t, site, adult);
      expect(flow.tokens.access_token).toBeTruthy();
      if (day === 1) {
        // The user revokes that grant: the partner hears of it by webhook.
        const tokens = await t.request.get('/api/v1/users/tokens').set(auth(adult.token)).expect(200);
        await t.request
          .delete(`/api/v1/users/tokens/${tokens.body.tokens[0].id as string}`)
          .set(auth(adult.token))
          .expect(204);
      }
      // A document case kept for review (media sealed at rest), attributed on the first day, decided on the last.
      if (day === 0) {
        const waiting = await verifiedUser(t, { location_country: 'GB' });
        const waitingUid = await interactionAtConsent(t, site, waiting);
        pendingCase = await t.services.verifications.record(
          {
            userId: waiting.user.id,
            type: 'age',
            method: 'document',
            status: 'pending',
            confidence: 0.4,
            ageThreshold: 18,
            needsReview: true,
            message: 'We could not read your document automatically, so a reviewer will check it.',
            details: { decision: 'unclear' },
            proves: { minAge: 18 },
            media: { bytes: randomBytes(3000), contentType: 'application/pdf' },
            systemNote: 'Automatic reading unclear',
          },
          { ip: randomClientIp(), userAgent: 'fixture', interaction: waitingUid },
        );
      }
      // Another still waiting at the end, its media kept.
      if (day === DAYS - 1) {
        const later = await verifiedUser(t, { location_country: 'FR' });
        await t.services.verifications.record(
          {
            userId: later.user.id,
            type: 'identity',
            method: 'document',
            status: 'pending',
            confidence: 0.5,
            ageThreshold: null,
            needsReview: true,
            message: 'A reviewer will check your document.',
            details: { decision: 'unclear' },
            proves: { identity: true },
            media: [
              { bytes: randomBytes(2048), contentType: 'image/jpeg' },
              { bytes: randomBytes(1024), contentType: 'video/webm' },
            ],
          },
          {
            ip: randomClientIp(),
            userAgent: 'fixture',
            interaction: await interactionAtConsent(t, site, later),
          },
        );
      }
      // A sandbox verification (counted apart) and one for the other partner's public client.
      const tester = await verifiedUser(t, { location_country: 'GB' });
      await failedCheck(t, tester, await interactionAtConsent(t, sandboxSite, tester));
      const shopper = await verifiedUser(t, { proven_min_age: 18, location_country: 'DE' });
      await failedCheck(t, shopper, await interactionAtConsent(t, publicSite, shopper));
      // Server-to-server calls with the API key: measured response times, held only by the daily roll-up.
      await t.request.get('/api/v1/partners/stats').set('X-API-Key', apiKey.body.api_key).expect(200);
      await t.request.get('/api/v1/partners/stats').set(auth(acmeToken)).expect(200);
      await t.services.webhooks.deliverDueOnce();
      // To the same time on the next UTC day. Exactly a day: instants 24 h apart always fall on different dates (a
      // step of a day less ten minutes put two days on one date when the run began in the 20 minutes after midnight).
      t.clock.advance(DAY);
    }
    // The reviewer (signed in again: admin sessions do not last days) approves the first day's case on the last
    // day: the status-change trigger moves its counts.
    const reviewerToken = await signInAdmin(t, reviewer.email, reviewer.secret);
    await t.request
      .post(`/api/v1/admin/verifications/${(pendingCase as { id: string }).id}/approve`)
      .set(auth(reviewerToken))
      .send({ reviewer_notes: 'Photo page readable by eye' })
      .expect(200);
    await t.services.webhooks.deliverDueOnce();
    await t.services.users.whenIdle();
    return { t, receiver, partnerIds: [acme.partner.id, other.partner.id] };
  } catch (error) {
    await receiver.close();
    await t.close().catch(() => undefined);
    throw error;
  }
}

export type Installation = Awaited<ReturnType<typeof realisticInstallation>>;
