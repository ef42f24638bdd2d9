import http from 'node:http';
import https from 'node:https';
import { WEBHOOK_LIMITS } from '@attestly/contracts';
import {
  PRIVATE_TARGET,
  guardedLookup,
  isPublicAddress,
  urlPort,
  urlProblem,
  type OutboundAllowlist,
} from './outbound-guard';

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
 * POSTs webhook bodies through keep-alive agents, each request with a `lookup` that refuses private addresses unless
 * the host and port are listed (outbound-guard.ts), with a hard timeout for the whole exchange. What the partner
 * reads back (the test call, the delivery log) says "refused" or "failed" and a category, never an address or a
 * resolver's message, and the first bytes of the answer only when it came from a public address: an allowlisted
 * internal service's answer is not echoed to partners.
 */
export function createWebhookSender(
  allowlist: OutboundAllowlist,
  timeoutMs: number = WEBHOOK_LIMITS.timeoutMs,
) {
  // The lookup is given per request (it needs the port); an agent's own `lookup` would take precedence over it.
  const agentOptions = { keepAlive: true, maxSockets: 64, timeout: timeoutMs };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

  const send: WebhookSender = (request) => {
    const started = performance.now();
    const done = (partial: Omit<SendResult, 'latencyMs'>): SendResult => ({
      ...partial,
      latencyMs: Math.round(performance.now() - started),
    });
    const problem = urlProblem(request.url, allowlist);
    if (problem) {
      const error = problem === PRIVATE_TARGET ? REFUSED_PRIVATE : 'refused: URL not allowed';
      return Promise.resolve(done({ ok: false, statusCode: null, error, responseExcerpt: null }));
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
          lookup: guardedLookup(allowlist, urlPort(url)),
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(request.body),
            'User-Agent': 'Attestly-Webhooks/1.0',
            ...request.headers,
          },
        },
        (response) => {
          // Checked on the connection itself: an allowlisted name or network is not public, whatever it says.
          const excerptAllowed = isPublicAddress(response.socket?.remoteAddress ?? '');
          const chunks: Buffer[] = [];
          let kept = 0;
          response.on('data', (chunk: Buffer) => {
            if (excerptAllowed && kept < WEBHOOK_LIMITS.responseExcerptBytes) {
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
              error: status >= 200 && status < 300 ? null : `failed: HTTP ${status}`,
              responseExcerpt: excerpt || null,
            });
          });
          response.on('error', (error) => finish(failure(error, response.statusCode ?? null)));
        },
      );
      const timer = setTimeout(() => {
        outgoing.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }));
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

const REFUSED_PRIVATE = 'refused: no public address';

/** Error codes by what the partner is told; anything else is "failed: connection error". */
const FAILURES: Array<[RegExp, string]> = [
  [/^EOUTBOUNDREFUSED$/, REFUSED_PRIVATE],
  [/^(ETIMEDOUT|ESOCKETTIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$/, 'failed: timeout'],
  [/^ECONNREFUSED$/, 'failed: connection refused'],
  [/^(ECONNRESET|EPIPE|ECONNABORTED)$/, 'failed: connection reset'],
  [/^(EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN)$/, 'failed: unreachable'],
  [/^(ERR_TLS_|ERR_SSL_|EPROTO$|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_)/, 'failed: TLS'],
];

/**
 * What a failed exchange is reported as: "refused" or "failed" and a category. The error's own message never
 * reaches the partner: resolver and socket messages name internal hosts and addresses.
 */
export function failureCategory(error: Error & { code?: string }): string {
  const code = error.code ?? '';
  return FAILURES.find(([pattern]) => pattern.test(code))?.[1] ?? 'failed: connection error';
}

function failure(error: Error & { code?: string }, statusCode: number | null): Omit<SendResult, 'latencyMs'> {
  return { ok: false, statusCode, error: failureCategory(error), responseExcerpt: null };
}
