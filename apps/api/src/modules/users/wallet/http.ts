import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';
import type { Clock } from '../../../lib/clock';
import { rateLimit } from '../../../middleware/rate-limit';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { WalletConfig } from './config';
import { walletGateway } from './gateway';
import type { IssuanceAudit } from './issuer';
import { createOfferService } from './offers';
import { walletRoutes } from './routes';
import { presentationRoutes } from './presentation-routes';
import type { Wallet } from './index';

/** The provider and the wallet it was built with (oidc/index.ts). */
export interface WalletOidc {
  readonly provider: Provider;
  readonly issuer: string;
  readonly mountPath: string;
  readonly wallet: Wallet;
}

/** The wallet's HTTP surface: middleware ahead of /oauth2 (gateway.ts) and the /api/v1/wallet routes. */
export function walletHttp(
  oidc: WalletOidc,
  deps: {
    config: { publicUrl: string; masterKey: Buffer; wallet: WalletConfig };
    clock: Clock;
    audit: IssuanceAudit;
    limiter: RateLimiter;
    requireUser: Middleware;
  },
) {
  const offers = createOfferService({
    oidc,
    publicUrl: deps.config.publicUrl,
    masterKey: deps.config.masterKey,
    credentialDays: deps.config.wallet.credentialDays,
    policy: oidc.wallet.policy,
    audit: deps.audit,
    clock: deps.clock,
  });
  const offerLimit = rateLimit(
    deps.limiter,
    { name: 'wallet-offer:user', limit: 20, windowMs: 3600_000 },
    (ctx) => (ctx.state.session as { subject_id: string }).subject_id,
    'Too many wallet offers. Please wait an hour and try again.',
  );
  return {
    gateway: walletGateway({
      issuer: oidc.issuer,
      mountPath: oidc.mountPath,
      keys: oidc.wallet.keys,
      presentations: oidc.wallet.presentations,
    }),
    routes: walletRoutes({ offers, requireUser: deps.requireUser, offerLimit }).use(
      presentationRoutes(oidc, oidc.wallet.presentations).routes(),
    ),
  };
}
