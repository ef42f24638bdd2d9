import http from 'node:http';
import https from 'node:https';
import { WEBHOOK_LIMITS } from '@attestly/contracts';
import { guardedLookup, urlProblem, type OutboundAllowlist } from './outbound-guard';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string | null;
}

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export type WebhookSender = (request: WebhookRequest) => Promise<SendResult>;

/**
 * POSTs webhook bodies through keep-alive agents whose `lookup` refuses private addresses (outbound-guard.ts), with
 * a hard timeout for the whole exchange and only the first bytes of the answer kept for the delivery log.
 */
export function createWebhookSender(
  allowlist: OutboundAllowlist,
  timeoutMs: number = WEBHOOK_LIMITS.timeoutMs,
) {
  const lookup = guardedLookup(allowlist);
  const agentOptions = { keepAlive: true, maxSockets: 64, lookup, timeout: timeoutMs };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

  const send: WebhookSender = (request) => {
    const started = performance.now();
    const done = (partial: Omit<SendResult, 'latencyMs'>): SendResult => ({
      ...partial,
      latencyMs: Math.round(performance.now() - started),
    });
    const problem = urlProblem(request.url, allowlist);
    if (problem) {
      return Promise.resolve(done({ ok: false, statusCode: null, error: problem, responseExcerpt: null }));
    }
    const url = new URL(request.url);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<SendResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(result));
      };
      const outgoing = client.request(
        url,
        {
          method: 'POST',
          agent: agents[url.protocol as 'http:' | 'https:'],
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(request.body),
            'User-Agent': 'Attestly-Webhooks/1.0',
            ...request.headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          response.on('data', (chunk: Buffer) => {
            if (kept < WEBHOOK_LIMITS.responseExcerptBytes) {
              chunks.push(chunk);
              kept += chunk.length;
            }
          });
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            const excerpt = Buffer.concat(chunks)
              .subarray(0, WEBHOOK_LIMITS.responseExcerptBytes)
              .toString('utf8');
            finish({
              ok: status >= 200 && status < 300,
              statusCode: status,
              error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
              responseExcerpt: excerpt || null,
            });
          });
          response.on('error', (error) => finish(failure(error, response.statusCode ?? null)));
        },
      );
      const timer = setTimeout(() => {
        outgoing.destroy(new Error(`timed out after ${timeoutMs / 1000} s`));
      }, timeoutMs);
      outgoing.on('error', (error) => finish(failure(error, null)));
      outgoing.end(request.body);
    });
  };

  return {
    send,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

function failure(error: Error & { code?: string }, statusCode: number | null): Omit<SendResult, 'latencyMs'> {
  const message = error.code === 'EOUTBOUNDREFUSED' ? `refused: ${error.message}` : error.message;
  return { ok: false, statusCode, error: message.slice(0, 300), responseExcerpt: null };
}
