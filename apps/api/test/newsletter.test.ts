import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, randomClientIp, rowCounts, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const SUBJECT = /Confirm your subscription/;
const uniqueEmail = () => `reader-${randomBytes(5).toString('hex')}@example.com`;

function post(path: string, body: unknown, ip = randomClientIp()) {
  return t.request
    .post(`/api/v1/newsletter/${path}`)
    .set('X-Forwarded-For', ip)
    .set('User-Agent', 'newsletter-test')
    .send(body as object);
}

/** Subscribes and reads the confirm and unsubscribe tokens from the mail. */
async function subscribe(email: string) {
  const already = t.smtp.messages.length;
  await post('subscribe', { email }).expect(202);
  const deadline = Date.now() + 5000;
  for (;;) {
    const mail = t.smtp.messages
      .slice(already)
      .find((item) => item.to.includes(email) && SUBJECT.test(item.subject));
    if (mail) {
      return {
        confirm: decodeURIComponent(/newsletter\/confirm\?token=(\S+)/.exec(mail.text)?.[1] ?? ''),
        unsubscribe: decodeURIComponent(/newsletter\/unsubscribe\?token=(\S+)/.exec(mail.text)?.[1] ?? ''),
      };
    }
    if (Date.now() > deadline) throw new Error(`no confirmation mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const subscriber = (email: string) => t.db.models.NewsletterSubscriber.findOne({ where: { email } });

describe('newsletter double opt-in', () => {
  it('stores a new address unconfirmed and confirms it only from the mailed link', async () => {
    const email = uniqueEmail();
    const response = await post('subscribe', { email: email.toUpperCase() }).expect(202);
    expect(response.body).toEqual({ message: 'Almost done: check your inbox to confirm your subscription.' });
    const mail = await t.smtp.waitFor(email, SUBJECT);
    expect(mail.text).toContain('http://attestly.test/newsletter/unsubscribe?token=');
    expect((await subscriber(email))?.confirmed_at).toBeNull();

    const token = decodeURIComponent(/newsletter\/confirm\?token=(\S+)/.exec(mail.text)?.[1] ?? '');
    const confirmed = await post('confirm', { token }).expect(200);
    expect(confirmed.body).toEqual({ message: 'Your subscription is confirmed.' });
    expect((await subscriber(email))?.confirmed_at?.toISOString()).toBe(t.clock.now().toISOString());
    const again = await post('confirm', { token }).expect(400);
    expect(again.body.code).toBe('newsletter.invalid_token');

    const audit = await t.db.models.AuditLog.findOne({
      where: { event_type: 'newsletter.subscribed' },
      order: [['id', 'DESC']],
    });
    expect(audit).toMatchObject({ user_agent: 'newsletter-test' });
    expect(audit?.details).not.toContain(email);
  });

  it('answers an address already confirmed like a new one, without a second row or mail', async () => {
    const email = uniqueEmail();
    const { confirm } = await subscribe(email);
    await post('confirm', { token: confirm }).expect(200);
    const mails = t.smtp.messages.length;
    const before = await rowCounts(t, ['newsletter_subscribers']);
    const response = await post('subscribe', { email }).expect(202);
    expect(response.body).toEqual({ message: 'Almost done: check your inbox to confirm your subscription.' });
    expect(await rowCounts(t, ['newsletter_subscribers'])).toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(t.smtp.messages.length).toBe(mails);
  });

  it('unsubscribes with the link from the mail, and the address can subscribe again', async () => {
    const email = uniqueEmail();
    const { confirm, unsubscribe } = await subscribe(email);
    await post('confirm', { token: confirm }).expect(200);
    const response = await post('unsubscribe', { token: unsubscribe }).expect(200);
    expect(response.body).toEqual({ message: 'You have been unsubscribed.' });
    expect((await subscriber(email))?.unsubscribed_at).not.toBeNull();
    for (const event of ['newsletter.confirmed', 'newsletter.unsubscribed']) {
      const audit = await t.db.models.AuditLog.findOne({
        where: { event_type: event },
        order: [['id', 'DESC']],
      });
      expect(audit?.user_agent, event).toBe('newsletter-test');
      expect(audit?.ip_address, event).toMatch(/^10\./);
    }
    await post('unsubscribe', { token: unsubscribe }).expect(200);

    const fresh = await subscribe(email);
    expect(fresh.unsubscribe).not.toBe(unsubscribe);
    await post('unsubscribe', { token: unsubscribe }).expect(400);
    await post('confirm', { token: fresh.confirm }).expect(200);
    expect(await subscriber(email)).toMatchObject({ unsubscribed_at: null });
    expect(await t.db.models.NewsletterSubscriber.count({ where: { email } })).toBe(1);
  });

  it('refuses a confirmation link older than seven days', async () => {
    const email = uniqueEmail();
    const { confirm } = await subscribe(email);
    t.clock.advance(7 * 24 * 3600_000 + 1000);
    await post('confirm', { token: confirm }).expect(400);
    expect((await subscriber(email))?.confirmed_at).toBeNull();
  });

  it('refuses made-up tokens and changes nothing', async () => {
    const before = await rowCounts(t);
    await post('confirm', { token: randomBytes(32).toString('base64url') }).expect(400);
    const response = await post('unsubscribe', { token: randomBytes(24).toString('base64url') }).expect(400);
    expect(response.body).toMatchObject({
      code: 'newsletter.invalid_token',
      detail: 'This unsubscribe link is invalid',
    });
    expect(await rowCounts(t)).toEqual(before);
  });

  it.each([
    ['subscribe', {}, [['email', 'Email is required']]],
    ['subscribe', { email: 'not an email' }, [['email', 'Invalid email']]],
    ['subscribe', { email: 3 }, [['email', 'Must be text']]],
    ['confirm', {}, [['token', 'Token is required']]],
    ['unsubscribe', { token: '' }, [['token', 'Token is required']]],
  ])('%s refuses %j with 422 and changes nothing', async (path, body, expected) => {
    const before = await rowCounts(t);
    const response = await post(path, body).expect(422);
    expect(response.body.errors).toEqual(expected.map(([field, message]) => ({ path: field, message })));
    expect(await rowCounts(t)).toEqual(before);
  });

  it('limits sign-ups per address to three an hour', async () => {
    const email = uniqueEmail();
    for (let request = 1; request <= 3; request += 1) await post('subscribe', { email }).expect(202);
    const limited = await post('subscribe', { email }).expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(3600);
  });

  it('limits requests per client address to twenty an hour', async () => {
    const ip = randomClientIp();
    for (let request = 1; request <= 20; request += 1)
      await post('subscribe', { email: uniqueEmail() }, ip).expect(202);
    const limited = await post('subscribe', { email: uniqueEmail() }, ip).expect(429);
    expect(limited.body.code).toBe('rate_limited');
  });
});
