import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for api.stripe.com that speaks its wire format for the calls Attestly makes (form-encoded
 * requests with bracketed keys, JSON objects with `object` types, `{error: {type, code, message}}` failures,
 * bearer secret keys). The app talks to it through the official SDK (host/port/protocol). Tests drive what a
 * customer does on Stripe's pages (`completeCheckout`) and sign events with the SDK's test-header helper.
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

export async function startStripeFake(options: { secretKey: string; webhookSecret: string }) {
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const customers = new Set<string>();
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
      if (request.headers.authorization !== `Bearer ${options.secretKey}`) {
        return send(response, 401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
        });
      }
      if (outage.remaining > 0) {
        outage.remaining -= 1;
        return send(response, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
      }
      const match = (pattern: RegExp) => pattern.exec(url.pathname);
      let found: RegExpExecArray | null;
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sdk = new Stripe(options.secretKey);

  return {
    apiUrl,
    calls,
    outage,
    sessions,
    subscriptions,
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
