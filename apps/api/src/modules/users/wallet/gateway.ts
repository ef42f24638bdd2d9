import { Readable } from 'node:stream';
import type { Middleware } from 'koa';
import { credentialVct } from './credentials';
import { PRE_AUTHORIZED_GRANT, WALLET_CLIENT_ID } from './issuer';
import { answerPresentation } from './presentation-routes';
import { RESPONSE_PATH, type PresentationService } from './presentations';

/**
 * Wallet paths outside /api, served ahead of the provider (app.ts mounts this before /oauth2):
 * - the Credential Issuer metadata and the authorization server metadata at the well-known paths with the issuer's
 *   path inserted (OID4VCI §12.2.2, RFC 8414 §3), answered by the provider's own documents;
 * - the credential root as PEM, for partners and verifiers to pin (issue 24 item 4);
 * - the SD-JWT VC type metadata at the `vct` URL (SD-JWT VC §6);
 * - anonymous wallets at the token endpoint: OID4VCI §6.1 makes client authentication optional for the
 *   pre-authorized code grant, so a request that names no client is made on behalf of the wallet client.
 */
export interface GatewayWallet {
  issuer: string;
  mountPath: string;
  keys: { rootBundle(): Promise<string> };
  presentations: PresentationService;
}

const TOKEN_BODY_LIMIT = 56 * 1024;
/** A presentation holds one credential: a few kilobytes (an mdoc with a long chain stays well under this). */
const PRESENTATION_BODY_LIMIT = 256 * 1024;
const RESPONSE_ROUTE = new RegExp(`^${RESPONSE_PATH}/([A-Za-z0-9_-]{20,64})$`);

async function readBody(stream: Readable, limit = TOKEN_BODY_LIMIT): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    length += (chunk as Buffer).length;
    if (length > limit) throw Object.assign(new Error('request entity too large'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function walletGateway(wallet: GatewayWallet): Middleware {
  const { mountPath, issuer } = wallet;
  const issuerPath = new URL(issuer).pathname;
  const aliases = new Map([
    [
      `/.well-known/openid-credential-issuer${issuerPath}`,
      `${mountPath}/.well-known/openid-credential-issuer`,
    ],
    [
      `/.well-known/oauth-authorization-server${issuerPath}`,
      `${mountPath}/.well-known/oauth-authorization-server`,
    ],
  ]);
  const vctPath = new URL(credentialVct(issuer)).pathname;

  return async (ctx, next) => {
    const alias = ctx.method === 'GET' || ctx.method === 'OPTIONS' ? aliases.get(ctx.path) : undefined;
    if (alias) {
      ctx.url = alias;
      return next();
    }
    if (ctx.method === 'GET' && ctx.path === '/.well-known/attestly/credential-root.pem') {
      ctx.type = 'application/x-pem-file';
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = await wallet.keys.rootBundle();
      return;
    }
    if (ctx.method === 'GET' && ctx.path === vctPath) {
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = {
        vct: credentialVct(issuer),
        name: 'Age credential',
        description: 'Whether the holder is at least a given age; nothing else about them.',
        claims: ['12', '16', '18', '21'].map((age) => ({
          path: ['age_equal_or_over', age],
          display: [{ locale: 'en', label: `At least ${age}` }],
          sd: 'always',
        })),
      };
      return;
    }
    const response = ctx.method === 'POST' ? RESPONSE_ROUTE.exec(ctx.path) : null;
    if (response) {
      // The wallet's answer (OID4VP §8.2 direct_post, §8.3 direct_post.jwt): a form, never JSON.
      ctx.set('Cache-Control', 'no-store');
      if (!ctx.is('application/x-www-form-urlencoded')) {
        ctx.status = 415;
        ctx.body = { error: 'invalid_request', error_description: 'send application/x-www-form-urlencoded' };
        return;
      }
      const form = new URLSearchParams((await readBody(ctx.req, PRESENTATION_BODY_LIMIT)).toString('utf8'));
      const answer = await answerPresentation(wallet.presentations, response[1] as string, {
        vp_token: form.get('vp_token') ?? undefined,
        state: form.get('state') ?? undefined,
        response: form.get('response') ?? undefined,
      });
      ctx.status = answer.status;
      ctx.body = answer.body;
      return;
    }
    if (
      ctx.method === 'POST' &&
      ctx.path === `${mountPath}/token` &&
      !ctx.get('Authorization') &&
      ctx.is('application/x-www-form-urlencoded')
    ) {
      const raw = await readBody(ctx.req);
      const params = new URLSearchParams(raw.toString('utf8'));
      const anonymous =
        params.get('grant_type') === PRE_AUTHORIZED_GRANT &&
        !params.has('client_id') &&
        !params.has('client_assertion');
      if (anonymous) params.set('client_id', WALLET_CLIENT_ID);
      // The provider reads the body itself, from the stream: hand it one with the (possibly amended) parameters.
      const body = anonymous ? Buffer.from(params.toString()) : raw;
      const replay = Readable.from([body]);
      Object.defineProperty(ctx.req, 'readable', { configurable: true, get: () => replay.readable });
      ctx.req.iterator = replay.iterator.bind(replay) as typeof ctx.req.iterator;
      ctx.req.headers['content-length'] = String(body.length);
      delete ctx.req.headers['transfer-encoding'];
    }
    return next();
  };
}
