import { createHmac, timingSafeEqual } from 'node:crypto';

/** Replay window: a delivery signed longer ago than this (or this far in the future) is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface VerifyWebhookOptions {
  /** Seconds of clock difference accepted (default 300 = 5 minutes). */
  toleranceSeconds?: number;
  /** The current time in seconds since the epoch (tests). */
  now?: number;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/**
 * Verifies an Attestly webhook delivery and returns its parsed body. `signatureHeader` is the
 * `Attestly-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`), `rawBody` the
 * body exactly as received (not re-serialised JSON), `secret` the endpoint's signing secret. Throws
 * WebhookVerificationError when the header is malformed, the timestamp is outside the tolerance or no `v1`
 * signature matches (compared in constant time; several `v1` entries are accepted during a secret rotation).
 */
export function verifyWebhook<T = unknown>(
  signatureHeader: string | null | undefined,
  rawBody: string | Uint8Array,
  secret: string,
  options: VerifyWebhookOptions = {},
): T {
  if (!signatureHeader) throw new WebhookVerificationError('Missing Attestly-Signature header');
  if (!secret) throw new WebhookVerificationError('Missing webhook secret');
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of signatureHeader.split(',')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    const key = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === null || signatures.length === 0) {
    throw new WebhookVerificationError('Malformed Attestly-Signature header');
  }
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError('Timestamp outside the tolerance window (possible replay)');
  }
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('Signature does not match');
  return JSON.parse(body.toString('utf8')) as T;
}
