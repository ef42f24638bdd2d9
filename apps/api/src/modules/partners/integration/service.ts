import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import {
  SCOPES,
  redirectUriOutsideDomain,
  redirectUriProblem,
  type IntegrationCheck,
  type IntegrationTestResult,
} from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import type { Site } from '../../../db/models/index';
import { AppError } from '../../../errors';
import type { SiteService } from '../sites/service';

/** Where this appliance's own HTTP server listens, as seen by the request being answered. */
export interface LocalServer {
  host: string;
  port: number;
}

const LOCAL_TIMEOUT_MS = 5000;

/** GET through the appliance's own server (not the public URL, which may not be reachable from inside). */
function localGet(server: LocalServer, publicUrl: string, path: string) {
  const target = new URL(publicUrl);
  return new Promise<{ status: number; location: string | null; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: server.host,
        port: server.port,
        path,
        method: 'GET',
        headers: {
          Host: target.host,
          'X-Forwarded-Proto': target.protocol.replace(':', ''),
          Accept: 'text/html',
          'User-Agent': 'Attestly integration test',
        },
        timeout: LOCAL_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: typeof res.headers.location === 'string' ? res.headers.location : null,
            body: Buffer.concat(chunks).toString('utf8').slice(0, 2000),
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/**
 * The integration test of spec 01 §2 "/partner/integration", made real: checks a site's configuration and sends a
 * PKCE authorization request for it to this appliance's /oauth2, timing each check. The reference only faked a
 * random response time.
 */
export function createIntegrationTest({ config }: Pick<Deps, 'config'>, { sites }: { sites: SiteService }) {
  async function timed(name: string, run: () => Promise<string> | string): Promise<IntegrationCheck> {
    const started = performance.now();
    try {
      const detail = await run();
      return { name, ok: true, detail, duration_ms: Math.round((performance.now() - started) * 10) / 10 };
    } catch (error) {
      return {
        name,
        ok: false,
        detail: error instanceof Error ? error.message : String(error),
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
      };
    }
  }

  function fail(message: string): never {
    throw new Error(message);
  }

  async function authorizationRequest(site: Site, redirectUri: string, server: LocalServer) {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({
      client_id: site.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: ['openid', ...site.allowed_scopes].join(' '),
      state: randomBytes(16).toString('base64url'),
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const answer = await localGet(server, config.publicUrl, `/oauth2/authorize?${query.toString()}`);
    const location = answer.location ? new URL(answer.location, config.publicUrl) : null;
    if (location && location.pathname === '/oauth/login' && location.searchParams.get('uid')) {
      return `Accepted: the provider answered ${answer.status} and started the sign-in (${location.pathname})`;
    }
    if (location?.searchParams.get('error')) {
      fail(
        `Refused: ${location.searchParams.get('error')} — ${location.searchParams.get('error_description') ?? ''}`.trim(),
      );
    }
    const reason = /<pre>([\s\S]*?)<\/pre>|error_description[^>]*>([^<]+)/i.exec(answer.body);
    fail(`Refused with HTTP ${answer.status}${reason ? `: ${(reason[1] ?? reason[2] ?? '').trim()}` : ''}`);
  }

  return {
    async run(
      partnerId: string,
      siteId: string,
      options: { redirectUri?: string; server: LocalServer },
    ): Promise<IntegrationTestResult> {
      const started = performance.now();
      const site = await sites.ownSite(partnerId, siteId);
      const redirectUri = options.redirectUri ?? site.redirect_uris[0] ?? '';
      if (options.redirectUri && !site.redirect_uris.includes(options.redirectUri)) {
        throw new AppError(422, 'validation.failed', 'Choose one of the site’s registered redirect URIs', [
          { path: 'redirect_uri', message: 'Choose one of the site’s registered redirect URIs' },
        ]);
      }
      const checks: IntegrationCheck[] = [];
      checks.push(
        await timed('Site is active', () =>
          site.is_active ? 'The site accepts sign-ins' : fail('The site is deactivated'),
        ),
      );
      checks.push(
        await timed('Redirect URIs', () => {
          for (const uri of site.redirect_uris) {
            const problem =
              redirectUriProblem(uri) ?? redirectUriOutsideDomain(uri, site.domain, site.sandbox);
            if (problem) fail(`${uri}: ${problem}`);
          }
          return `${site.redirect_uris.length} well-formed URI(s) on ${site.domain}${site.sandbox ? ' (sandbox)' : ''}`;
        }),
      );
      checks.push(
        await timed('Scopes', () => {
          const unknown = site.allowed_scopes.filter(
            (scope) => !(SCOPES as readonly string[]).includes(scope),
          );
          if (unknown.length) fail(`Unknown scopes: ${unknown.join(', ')}`);
          if (!site.allowed_scopes.includes('basic_info')) fail('basic_info must be allowed');
          return site.allowed_scopes.join(', ');
        }),
      );
      checks.push(
        await timed('Client authentication', () => {
          if (site.client_type === 'confidential' && !site.client_secret_hash) {
            fail('A confidential site has no client secret: rotate it to get one');
          }
          if (site.client_type === 'public' && site.client_secret_hash) {
            fail('A public site must not hold a client secret');
          }
          return site.client_type === 'confidential'
            ? 'Confidential client: client secret (HTTP Basic) and PKCE S256 at /oauth2/token'
            : 'Public client: no secret, PKCE S256 protects the code';
        }),
      );
      checks.push(
        await timed('Authorization request (PKCE S256)', () =>
          authorizationRequest(site, redirectUri, options.server),
        ),
      );
      const failed = checks.find((check) => !check.ok);
      const responseTime = Math.round(performance.now() - started);
      return {
        success: !failed,
        message: failed
          ? `Integration test failed: ${failed.name}: ${failed.detail}`
          : 'Integration test passed',
        checks,
        details: { domain: site.domain, redirectUri, scopes: site.allowed_scopes, responseTime },
        ...(failed ? { error: 'Integration test failed' } : {}),
      };
    },
  };
}
export type IntegrationTest = ReturnType<typeof createIntegrationTest>;
