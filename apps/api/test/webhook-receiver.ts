import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../sdk/src/webhooks';

export interface ReceivedDelivery {
  eventId: string;
  signature: string;
  body: string;
  payload: {
    id: string;
    event: string;
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  } | null;
  /** Whether the signature and timestamp checked out (the SDK's verifyWebhook). */
  verified: boolean;
  problem: string | null;
  contentType: string;
}

/**
 * A real HTTP receiver for webhook tests: checks every delivery's signature and timestamp with the SDK's
 * verifyWebhook against `secret` and the given clock, records it, and answers what `respond` says.
 */
export async function startReceiver(options: { now?: () => Date } = {}) {
  const received: ReceivedDelivery[] = [];
  const state = {
    secret: '',
    respond: (_delivery: ReceivedDelivery, _count: number): number => 200,
    delayMs: 0,
  };
  const waiters: Array<() => void> = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = String(request.headers['attestly-signature'] ?? '');
      let payload: ReceivedDelivery['payload'] = null;
      let problem: string | null = null;
      try {
        payload = verifyWebhook(signature, body, state.secret, {
          now: Math.floor((options.now?.() ?? new Date()).getTime() / 1000),
        });
      } catch (error) {
        problem = (error as Error).message;
      }
      const delivery: ReceivedDelivery = {
        eventId: String(request.headers['attestly-event-id'] ?? ''),
        signature,
        body,
        payload,
        verified: problem === null,
        problem,
        contentType: String(request.headers['content-type'] ?? ''),
      };
      received.push(delivery);
      const status = state.respond(delivery, received.length);
      const answer = () => {
        response.statusCode = status;
        response.end(status >= 400 ? `receiver says ${status}` : 'ok');
        waiters.splice(0).forEach((wake) => wake());
      };
      if (state.delayMs) setTimeout(answer, state.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    state,
    async waitFor(count: number, timeoutMs = 10_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
