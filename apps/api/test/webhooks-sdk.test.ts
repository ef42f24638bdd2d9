import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../sdk/src/webhooks';
import { generateSecret, signatureHeader } from '../src/modules/partners/webhooks/signing';

/** The SDK's verifyWebhook against the server's signer (the same format on both sides). */
describe('verifyWebhook', () => {
  const secret = generateSecret();
  const body = JSON.stringify({ id: 'evt-1', event: 'token.revoked', data: { token_id: 't' } });
  const now = 1_800_000_000;

  it('accepts a delivery signed by the server and returns its payload', () => {
    const header = signatureHeader(secret, now, body);
    expect(verifyWebhook(header, body, secret, { now })).toMatchObject({ id: 'evt-1' });
    expect(verifyWebhook(header, Buffer.from(body), secret, { now: now + 299 })).toMatchObject({
      id: 'evt-1',
    });
  });

  it('refuses timestamps outside five minutes, either way', () => {
    const header = signatureHeader(secret, now, body);
    expect(() => verifyWebhook(header, body, secret, { now: now + 301 })).toThrow(/tolerance/);
    expect(() => verifyWebhook(header, body, secret, { now: now - 301 })).toThrow(/tolerance/);
  });

  it('refuses a changed body, a changed timestamp, another secret and malformed headers', () => {
    const header = signatureHeader(secret, now, body);
    expect(() => verifyWebhook(header, body.replace('"t"', '"u"'), secret, { now })).toThrow(
      'Signature does not match',
    );
    expect(() => verifyWebhook(header.replace(`t=${now}`, `t=${now + 1}`), body, secret, { now })).toThrow(
      'Signature does not match',
    );
    expect(() => verifyWebhook(header, body, generateSecret(), { now })).toThrow(WebhookVerificationError);
    for (const bad of ['', 'v1=abc', `t=${now}`, `t=${now},v1=zz`, 'garbage']) {
      expect(() => verifyWebhook(bad, body, secret, { now })).toThrow(WebhookVerificationError);
    }
  });

  it('accepts any matching v1 entry (secret rotation: old and new signatures side by side)', () => {
    const old = signatureHeader(generateSecret(), now, body);
    const current = signatureHeader(secret, now, body);
    const combined = `${old},${current.split(',')[1]}`;
    expect(verifyWebhook(combined, body, secret, { now })).toMatchObject({ id: 'evt-1' });
  });
});
