import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { stripeJs } from './stripe-js-fake';

/**
 * A local stand-in for api.stripe.com that speaks its wire format for the calls Attestly makes (form-encoded
 * requests with bracketed keys, JSON objects with `object` types, `{error: {type, code, message}}` failures,
 * bearer secret keys). The app talks to it through the official SDK (host/port/protocol). Tests drive what a
 * customer does on Stripe's pages (`completeCheckout`) and sign events with the SDK's test-header helper.
 *
 * SetupIntents and PaymentMethods (the card age check): the app creates and retrieves SetupIntents with its secret
 * key; the card's side — what Stripe.js does in the browser with the publishable key and the client secret — is
 * `POST /v1/setup_intents/:id/confirm` (also reachable as `confirmSetup` for API tests), with Stripe's test card
 * numbers deciding brand, funding, country and whether the issuer asks for 3-D Secure (TEST_CARDS).
 */
type Json = Record<string, unknown>;

/** Parses `a[b][0][c]=x` form bodies as Stripe's API does. */
export function parseForm(body: string): Json {
  const root: Json = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const keys = rawKey.split(/[[\]]+/).filter(Boolean);
    let node: Json = root;
    keys.forEach((key, index) => {
      if (index === keys.length - 1) node[key] = value;
      else node = (node[key] ??= {}) as Json;
    });
  }
  // Objects keyed 0, 1, … are lists.
  const lists = (value: unknown): unknown => {
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value as Json).map(([key, inner]) => [key, lists(inner)] as const);
    if (entries.length > 0 && entries.every(([key], index) => key === String(index)))
      return entries.map(([, inner]) => inner);
    return Object.fromEntries(entries);
  };
  return lists(root) as Json;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** Stripe's documented test cards (https://docs.stripe.com/testing) that the card check cares about. */
export const TEST_CARDS: Record<
  string,
  { brand: string; funding: 'credit' | 'debit' | 'prepaid'; country: string; threeDSecure?: 'required' }
> = {
  '4242424242424242': { brand: 'visa', funding: 'credit', country: 'US' },
  '4000058260000005': { brand: 'visa', funding: 'debit', country: 'GB' },
  '4000008260000000': { brand: 'visa', funding: 'credit', country: 'GB' },
  '5200828282828210': { brand: 'mastercard', funding: 'debit', country: 'US' },
  '5105105105105100': { brand: 'mastercard', funding: 'prepaid', country: 'US' },
  '4000002500003155': { brand: 'visa', funding: 'credit', country: 'US', threeDSecure: 'required' },
  '4000000000009995': { brand: 'visa', funding: 'credit', country: 'US' },
};
/** Declined by the issuer (Stripe's "insufficient funds" card stands for any decline here). */
const DECLINED = '4000000000009995';

export async function startStripeFake(options: {
  secretKey: string;
  webhookSecret: string;
  publishableKey?: string;
}) {
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const customers = new Set<string>();
  const setupIntents = new Map<string, Json>();
  const paymentMethods = new Map<string, Json>();
  const calls: Array<{ method: string; path: string; body: Json }> = [];
  /** How many of the next requests fail with Stripe's 500 api_error (an outage). */
  const outage = { remaining: 0 };

  const send = (response: ServerResponse, status: number, body: Json) => {
    response.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': id('req') });
    response.end(JSON.stringify(body));
  };
  const missing = (response: ServerResponse, kind: string, key: string) =>
    send(response, 404, {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such ${kind}: '${key}'`,
      },
    });

  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stripe.test');
      const body = parseForm(Buffer.concat(chunks).toString('utf8'));
      calls.push({ method: request.method ?? '', path: url.pathname, body });
      // Stripe.js talks to the API from the browser, with the publishable key, across origins.
      response.setHeader('Access-Control-Allow-Origin', '*');
      response.setHeader(
        'Access-Control-Allow-Headers',
        request.headers['access-control-request-headers'] ?? 'Authorization, Content-Type',
      );
      if (request.method === 'OPTIONS') return send(response, 200, {});
      let found: RegExpExecArray | null;
      const match = (pattern: RegExp) => pattern.exec(url.pathname);
      if (request.method === 'GET' && url.pathname === '/v3/') {
        response.writeHead(200, { 'Content-Type': 'text/javascript' });
        return response.end(stripeJs(apiUrl));
      }
      if (
        request.method === 'POST' &&
        (found = match(/^\/v1\/setup_intents\/([^/]+)\/confirm$/)) &&
        request.headers.authorization === `Bearer ${options.publishableKey ?? ''}`
      ) {
        const intent = setupIntents.get(found[1] as string);
        if (!intent || intent.client_secret !== body.client_secret)
          return missing(response, 'setup_intent', found[1] as string);
        const card = (body.payment_method_data as Json | undefined)?.card as Json | undefined;
        return send(response, 200, confirm(intent, String(card?.number ?? ''), body.authenticate !== 'fail'));
      }
      if (request.headers.authorization !== `Bearer ${options.secretKey}`) {
        return send(response, 401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
        });
      }
      if (outage.remaining > 0) {
        outage.remaining -= 1;
        return send(response, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
      }
      if (request.method === 'POST' && url.pathname === '/v1/setup_intents') {
        const intentId = id('seti');
        const intent: Json = {
          id: intentId,
          object: 'setup_intent',
          client_secret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
          status: 'requires_payment_method',
          usage: body.usage ?? 'off_session',
          payment_method_types: body.allowed_payment_method_types ?? ['card'],
          payment_method_options: body.payment_method_options ?? {},
          metadata: body.metadata ?? {},
          payment_method: null,
          next_action: null,
          last_setup_error: null,
          livemode: false,
        };
        setupIntents.set(intentId, intent);
        return send(response, 200, intent);
      }
      if (request.method === 'GET' && (found = match(/^\/v1\/setup_intents\/([^/]+)$/))) {
        const intent = setupIntents.get(found[1] as string);
        if (!intent) return missing(response, 'setup_intent', found[1] as string);
        // The SDK sends `expand[0]=payment_method`; curl users write `expand[]=…`.
        const expand = [...url.searchParams]
          .filter(([key]) => /^expand\[\d*\]$/.test(key))
          .map(([, value]) => value);
        const method = intent.payment_method ? paymentMethods.get(intent.payment_method as string) : null;
        return send(response, 200, {
          ...intent,
          payment_method: expand.includes('payment_method') ? (method ?? null) : intent.payment_method,
        });
      }
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const sessionId = id('cs');
        const session = {
          id: sessionId,
          object: 'checkout.session',
          mode: body.mode,
          status: 'open',
          payment_status: 'unpaid',
          url: `https://checkout.stripe.test/c/pay/${sessionId}`,
          client_reference_id: body.client_reference_id ?? null,
          customer: body.customer ?? null,
          customer_email: body.customer_email ?? null,
          metadata: body.metadata ?? {},
          subscription: null,
          success_url: String(body.success_url).replace('{CHECKOUT_SESSION_ID}', sessionId),
          cancel_url: body.cancel_url,
          line_items: body.line_items,
          subscription_data: body.subscription_data,
        };
        sessions.set(sessionId, session);
        return send(response, 200, session);
      }
      if (request.method === 'GET' && (found = match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
        const session = sessions.get(found[1] as string);
        return session
          ? send(response, 200, session)
          : missing(response, 'checkout.session', found[1] as string);
      }
      if (request.method === 'GET' && (found = match(/^\/v1\/subscriptions\/([^/]+)$/))) {
        const subscription = subscriptions.get(found[1] as string);
        return subscription
          ? send(response, 200, subscription)
          : missing(response, 'subscription', found[1] as string);
      }
      if (request.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
        if (!customers.has(String(body.customer)))
          return missing(response, 'customer', String(body.customer));
        const portalId = id('bps');
        return send(response, 200, {
          id: portalId,
          object: 'billing_portal.session',
          customer: body.customer,
          return_url: body.return_url,
          url: `https://billing.stripe.test/p/session/${portalId}`,
        });
      }
      send(response, 404, {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${request.method}: ${url.pathname})`,
        },
      });
    });
  });
  /**
   * What Stripe does when the browser confirms a SetupIntent with a card: a PaymentMethod for it, then succeeded,
   * declined (requires_payment_method with last_setup_error), or, where the issuer asks for 3-D Secure,
   * requires_action until the holder passes (`authenticate`) or fails the challenge.
   */
  function confirm(intent: Json, number: string, authenticated?: boolean): Json {
    const card = TEST_CARDS[number.replace(/\D/g, '')];
    if (!card) {
      intent.last_setup_error = {
        type: 'card_error',
        code: 'incorrect_number',
        message: 'Your card number is incorrect.',
      };
      return intent;
    }
    const methodId = id('pm');
    paymentMethods.set(methodId, {
      id: methodId,
      object: 'payment_method',
      type: 'card',
      card: {
        brand: card.brand,
        last4: number.slice(-4),
        funding: card.funding,
        country: card.country,
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 3,
        // Stripe's fingerprint: the same number gives the same value.
        fingerprint: Buffer.from(number).toString('base64url').slice(0, 16),
        checks: { cvc_check: 'pass', address_line1_check: null, address_postal_code_check: null },
        three_d_secure_usage: { supported: true },
      },
    });
    intent.payment_method = methodId;
    if (number === DECLINED) {
      Object.assign(intent, {
        status: 'requires_payment_method',
        payment_method: null,
        last_setup_error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
      });
    } else if (card.threeDSecure === 'required') {
      Object.assign(intent, { status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
      if (authenticated !== undefined) authenticate(intent.id as string, authenticated);
    } else {
      intent.status = 'succeeded';
    }
    return intent;
  }
  /** The holder's answer to the issuer's 3-D Secure challenge. */
  function authenticate(intentId: string, passed: boolean): Json {
    const intent = setupIntents.get(intentId) as Json;
    if (intent.status !== 'requires_action') return intent;
    Object.assign(
      intent,
      passed
        ? { status: 'succeeded', next_action: null }
        : {
            status: 'requires_payment_method',
            next_action: null,
            last_setup_error: {
              type: 'card_error',
              code: 'setup_intent_authentication_failure',
              message: 'We are unable to authenticate your payment method.',
            },
          },
    );
    return intent;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sdk = new Stripe(options.secretKey);

  return {
    apiUrl,
    /** Where the browser loads this fake's Stripe.js (ATTESTLY_STRIPE_JS_URL). */
    stripeJsUrl: `${apiUrl}/v3/`,
    calls,
    outage,
    sessions,
    subscriptions,
    setupIntents,
    /**
     * What Stripe.js does in the browser: confirm the SetupIntent with a card. With `threeDSecure: 'pending'` a
     * challenged card is left in requires_action (the holder has not answered yet).
     */
    confirmSetup(intentId: string, number: string, threeDSecure: 'pass' | 'fail' | 'pending' = 'pass') {
      const intent = setupIntents.get(intentId);
      if (!intent) throw new Error(`no setup intent ${intentId}`);
      return confirm(intent, number, threeDSecure === 'pending' ? undefined : threeDSecure === 'pass');
    },
    authenticate,
    /** What Stripe does when the customer pays: the session completes with a customer and an active subscription. */
    completeCheckout(sessionId: string, nowSeconds = Math.floor(Date.now() / 1000)) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      const customer = (session.customer as string | null) ?? id('cus');
      customers.add(customer);
      const subscriptionId = id('sub');
      const price = ((session.line_items as Json[])[0] as Json).price;
      subscriptions.set(subscriptionId, {
        id: subscriptionId,
        object: 'subscription',
        customer,
        status: 'active',
        metadata: session.metadata,
        items: {
          object: 'list',
          data: [
            {
              id: id('si'),
              object: 'subscription_item',
              price: { id: price, object: 'price' },
              current_period_start: nowSeconds,
              current_period_end: nowSeconds + 30 * 86400,
            },
          ],
        },
      });
      Object.assign(session, {
        status: 'complete',
        payment_status: 'paid',
        customer,
        subscription: subscriptionId,
      });
      return { session, subscription: subscriptions.get(subscriptionId) as Json };
    },
    /** A webhook event as Stripe sends it: JSON body and a Stripe-Signature header from the SDK's test helper. */
    event(type: string, object: Json, options2: { id?: string; timestamp?: number; secret?: string } = {}) {
      const payload = JSON.stringify({
        id: options2.id ?? id('evt'),
        object: 'event',
        api_version: '2026-10-28.endive',
        created: Math.floor(Date.now() / 1000),
        type,
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      });
      const header = sdk.webhooks.generateTestHeaderString({
        payload,
        secret: options2.secret ?? options.webhookSecret,
        ...(options2.timestamp !== undefined ? { timestamp: options2.timestamp } : {}),
      });
      return { payload, header };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
