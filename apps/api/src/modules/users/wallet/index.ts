import type { Logger } from 'pino';
import type { Database } from '../../../db/database';
import type { Clock } from '../../../lib/clock';
import { deriveKey } from '../../../lib/crypto';
import { createWalletClients, walletClientMetadata } from './clients';
import type { WalletConfig } from './config';
import { walletProviderConfiguration, type IssuanceAudit } from './issuer';
import { createIssuingPolicy } from './issuing-policy';
import { createWalletKeyStore } from './key-store';
import { createPresentationService } from './presentations';

/** What the wallet feature needs from the app (a small interface of its own rather than the app's deps). */
export interface WalletDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  config: { publicUrl: string; masterKey: Buffer; wallet: WalletConfig };
}

/**
 * Wallet credentials (issue 24): the issuer's keys, the issuing policy and the provider configuration that turns on
 * OpenID4VCI. oidc/index.ts builds it with the provider; routes and the OpenID4VP verifier use what it returns.
 */
export function createWallet(deps: WalletDeps, { issuer, audit }: { issuer: string; audit: IssuanceAudit }) {
  const { config } = deps;
  const keys = createWalletKeyStore(
    { db: deps.db, masterKey: config.masterKey, clock: deps.clock },
    { issuer, credentialDays: config.wallet.credentialDays, country: config.wallet.country },
  );
  const policy = createIssuingPolicy(deps, config.wallet.issuingMethods);
  const clients = createWalletClients(deps);
  const presentations = createPresentationService({
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger,
    publicUrl: config.publicUrl,
    masterKey: config.masterKey,
    issuer,
    trustAnchors: () => keys.trustAnchors(),
  });
  return {
    issuer,
    keys,
    policy,
    credentialDays: config.wallet.credentialDays,
    clients,
    /** The provider's client metadata of a registered wallet (oidc/adapter.ts asks when no site has the id). */
    async findClient(clientId: string) {
      const client = await clients.find(clientId);
      return client ? walletClientMetadata(client) : undefined;
    },
    presentations,
    providerConfiguration: walletProviderConfiguration({
      issuer,
      nonceSecret: deriveKey(config.masterKey, 'openid4vci-c-nonce'),
      credentialDays: config.wallet.credentialDays,
      keys,
      policy,
      audit,
      clock: deps.clock,
      logger: deps.logger,
    }),
  };
}
export type Wallet = ReturnType<typeof createWallet>;
