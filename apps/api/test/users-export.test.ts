import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../src/modules/shared/audit/service';
import { createTestApp, signUp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A partner with one site, made directly: the export only reads them by the grants that name them. */
async function partnerSite(label: string) {
  const now = t.clock.now();
  const partner = await t.db.models.Partner.create({
    email: `${label}-${randomBytes(3).toString('hex')}@partner.example`,
    password_hash: 'unused',
    company_name: `${label} Company`,
    contact_name: null,
    phone: null,
    website: null,
    business_type: null,
    locked_until: null,
    last_login_at: null,
    created_at: now,
    updated_at: now,
  } as never);
  const site = await t.db.models.Site.create({
    partner_id: partner.id,
    client_id: `client-${randomBytes(6).toString('hex')}`,
    client_type: 'public',
    client_secret_hash: null,
    site_name: `${label} Site`,
    domain: `${label.toLowerCase()}.example.com`,
    description: null,
    redirect_uris: [`https://${label.toLowerCase()}.example.com/callback`],
    allowed_scopes: ['basic_info', 'AGE_18'],
    icon_key: null,
    deleted_at: null,
  } as never);
  return { partner, site };
}

/** One user with a verification that carries card data, a grant to a partner site and an audit trail. */
async function populatedUser(label: string) {
  const account = await signUp(t, { full_name: `${label} Person` });
  const { partner, site } = await partnerSite(label);
  const now = t.clock.now();
  await t.db.models.Verification.create({
    user_id: account.user.id,
    verification_type: 'age',
    verification_method: 'credit_card',
    status: 'rejected',
    confidence_score: 0,
    age_threshold: 18,
    message: `${label} card checked`,
    result_details: { check: 'format_only', brand: 'visa', last4: '4242', card_seen_on_other_accounts: 1 },
    document_analysis: null,
    subject_fingerprint: `fp-${label}-${randomBytes(8).toString('hex')}`,
    partner_id: null,
    site_id: null,
    reviewed_at: null,
    reviewed_by: null,
    expires_at: null,
  });
  await t.db.models.OAuthAuthorization.create({
    id: randomUUID(),
    user_id: account.user.id,
    partner_id: partner.id,
    site_id: site.id,
    client_id: site.client_id,
    scopes: ['basic_info', 'AGE_18'],
    age_threshold: 18,
    jurisdiction: null,
    expires_at: new Date(now.getTime() + 86_400_000),
    last_used_at: null,
    revoked_at: null,
    revoked_reason: null,
  } as never);
  return { ...account, partner, site };
}

describe('GET /users/export', () => {
  it('hands a user everything held about them as one JSON download, and nothing about anyone else', async () => {
    const alice = await populatedUser('Alice');
    const bob = await populatedUser('Bob');
    await t.request
      .put('/api/v1/users/profile')
      .set(bearer(alice.token))
      .send({ full_name: 'Alice Person', email: alice.email, country: 'GB', city: 'London' })
      .expect(200);

    const response = await t.request.get('/api/v1/users/export').set(bearer(alice.token)).expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="attestly-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const document = response.body;
    expect(document.format).toBe('attestly.user-export/1');
    expect(document.profile).toMatchObject({
      id: alice.user.id,
      email: alice.email,
      country: 'GB',
      city: 'London',
    });
    expect(document.contact_verification.email).toBe(alice.email);
    expect(document.verifications).toHaveLength(1);
    expect(document.verifications[0]).toMatchObject({
      verification_method: 'credit_card',
      message: 'Alice card checked',
    });
    expect(document.connected_sites).toEqual([
      expect.objectContaining({
        site: { name: 'Alice Site', domain: 'alice.example.com' },
        partner: { company_name: 'Alice Company' },
        scopes: ['basic_info', 'AGE_18'],
      }),
    ]);
    expect(document.sessions.length).toBeGreaterThanOrEqual(1);
    expect(document.sessions[0]).not.toHaveProperty('token_hash');
    const events = document.audit_entries.map((entry: { event_type: string }) => entry.event_type);
    expect(events).toEqual(
      expect.arrayContaining(['user.registered', 'user.login_succeeded', 'user.profile_updated']),
    );

    const text = JSON.stringify(document);
    for (const foreign of [
      bob.user.id,
      bob.email,
      'Bob Person',
      'Bob Site',
      'Bob Company',
      bob.site.client_id,
    ]) {
      expect(text, foreign).not.toContain(foreign);
    }
    // Card data and facts about other accounts stay out; no secrets leave either. (Not a search for the digits 4242:
    // random ids contain them now and then: a user id 4242d18f-… failed a run on 2026-11-29.)
    expect(document.verifications[0].details).toEqual({ check: 'format_only' });
    expect(text).not.toMatch(/last4|"brand"|visa/i);
    expect(text).not.toContain('card_seen_on_other_accounts');
    expect(text).not.toMatch(/fp-Alice/);
    expect(text).not.toMatch(/password_hash|token_hash|scrypt/);
  });

  it('is audited, and the audit chain still verifies', async () => {
    const carol = await signUp(t);
    await t.request.get('/api/v1/users/export').set(bearer(carol.token)).expect(200);
    const rows = await t.db.models.AuditLog.findAll({
      where: { user_id: carol.user.id, event_type: 'user.data_exported' },
    });
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.details)).toMatchObject({ verifications: 0, connected_sites: 0 });
    expect((await verifyAuditChain(t.db)).ok).toBe(true);
  });

  it('is limited to five downloads an hour per account, with Retry-After', async () => {
    const dave = await signUp(t);
    for (let i = 0; i < 5; i += 1)
      await t.request.get('/api/v1/users/export').set(bearer(dave.token)).expect(200);
    const limited = await t.request.get('/api/v1/users/export').set(bearer(dave.token)).expect(429);
    expect(limited.body.detail).toMatch(/Please try again later/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(60 * 60_000);
    await t.request.get('/api/v1/users/export').set(bearer(dave.token)).expect(200);
  });

  it('requires a user session', async () => {
    const anonymous = await t.request.get('/api/v1/users/export').expect(401);
    expect(anonymous.body.code).toBeDefined();
  });
});
