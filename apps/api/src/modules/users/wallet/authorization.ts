import type { Context } from 'koa';
import type { Interaction } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { InteractionDetails, WalletAuthorizationRequest } from '@attestly/contracts';
import type { Clock } from '../../../lib/clock';
import { AppError } from '../../../errors';
import type { RequestOrigin } from '../../shared/sessions/service';
import { CREDENTIAL_DETAIL_TYPE, detailConfigurations, parseDetailsParameter } from './authorization-details';
import type { WalletClient, WalletClients } from './clients';
import {
  CREDENTIAL_CONFIGURATIONS,
  ageFacts,
  credentialsValidUntil,
  type CredentialConfigurationId,
} from './credentials';
import type { IssuanceAudit } from './issuer';
import { IssuingRefused, type IssuingPolicy } from './issuing-policy';

/**
 * The consent step of the OpenID4VCI authorization code flow (issue 24 item 3; OID4VCI §5): a wallet the operator
 * registered asks for credential configurations by `scope` or `authorization_details`; the user signs in with their Attestly account on the
 * usual screens, sees what the credentials will state, and consents. The issuing policy is applied here exactly as
 * for offers: a user it refuses is told why and no grant is made (and the credential endpoint applies it again).
 */

const CONFIGURATION_NAMES: Record<CredentialConfigurationId, string> = {
  proof_of_age: 'Proof of age (ISO mdoc, EU age verification)',
  age_sd_jwt: 'Age credential (SD-JWT VC)',
};

const NOTHING_REQUESTED =
  'This wallet asked for no credential that Attestly issues. Start again from your wallet.';

export interface WalletAuthorizationDeps {
  oidc: { readonly provider: Provider; readonly issuer: string };
  clients: WalletClients;
  policy: IssuingPolicy;
  credentialDays: number;
  audit: IssuanceAudit;
  clock: Clock;
}

/** What a wallet's request asks for: configurations by their `scope`, and by `openid_credential` details. */
export function requestedBy(interaction: Interaction) {
  const scopes = new Set(String(interaction.params.scope ?? '').split(' '));
  const byScope = CREDENTIAL_CONFIGURATIONS.filter((configuration) => scopes.has(configuration));
  const byDetails = detailConfigurations(parseDetailsParameter(interaction.params.authorization_details));
  return { byScope, byDetails };
}

/** The credential configurations a wallet's request asks for, either way. */
export function requestedConfigurations(interaction: Interaction): CredentialConfigurationId[] {
  const { byScope, byDetails } = requestedBy(interaction);
  return CREDENTIAL_CONFIGURATIONS.filter((id) => byScope.includes(id) || byDetails.includes(id));
}

/** Where the browser goes back to: a host for https, the scheme too for a wallet app's own scheme. */
function redirectHost(interaction: Interaction): string {
  const uri = URL.parse(String(interaction.params.redirect_uri));
  if (!uri) return '';
  return uri.protocol === 'https:' || uri.protocol === 'http:' ? uri.host : `${uri.protocol}//${uri.host}`;
}

export function createWalletAuthorization(deps: WalletAuthorizationDeps) {
  /** The registered wallet behind an interaction, or null for a partner site's. */
  async function clientOf(interaction: Interaction): Promise<WalletClient | null> {
    return deps.clients.find(String(interaction.params.client_id ?? ''));
  }

  /** What the policy says for this user now: the credentials' claims and last day, or the refusal. */
  async function outlook(accountId: string | undefined, requested: CredentialConfigurationId[]) {
    if (!requested.length) return { age_over: null, valid_until: null, refused: NOTHING_REQUESTED };
    if (!accountId) return { age_over: null, valid_until: null, refused: null };
    const now = deps.clock.now();
    try {
      const backing = await deps.policy.backing(accountId, now);
      const facts = ageFacts(backing.provenMinAge);
      return {
        age_over: Object.fromEntries(Object.entries(facts).map(([age, value]) => [String(age), value])),
        valid_until: credentialsValidUntil(now, deps.credentialDays, backing.until),
        refused: null,
      };
    } catch (error) {
      if (error instanceof IssuingRefused)
        return { age_over: null, valid_until: null, refused: error.detail };
      throw error;
    }
  }

  /** The login and consent screens' view of a wallet's request (the site block names the wallet). */
  async function details(
    interaction: Interaction,
    client: WalletClient,
  ): Promise<Pick<InteractionDetails, 'site' | 'scopes' | 'unproven_scopes' | 'verify_url' | 'wallet'>> {
    const requested = requestedConfigurations(interaction);
    const seen = await outlook(interaction.session?.accountId, requested);
    const wallet: WalletAuthorizationRequest = {
      credentials: requested.map((id) => ({ id, name: CONFIGURATION_NAMES[id] })),
      ...seen,
    };
    const consentPath = `/oauth/consent?uid=${encodeURIComponent(interaction.uid)}`;
    return {
      site: {
        client_id: client.clientId,
        site_name: client.name,
        domain: 'Wallet app',
        icon_url: null,
        partner_name: 'registered by the operator of this Attestly',
        redirect_host: redirectHost(interaction),
        sandbox: false,
      },
      scopes: [],
      unproven_scopes: [],
      verify_url:
        seen.refused && requested.length
          ? `/verification?return_to=${encodeURIComponent(consentPath)}`
          : null,
      wallet,
    };
  }

  /**
   * The user's "Add to wallet" on the consent screen: a grant for exactly the requested configurations at the
   * credential issuer, or 403 with the policy's reason (the screen shows it; Deny sends the wallet access_denied).
   */
  async function consent(
    ctx: Context,
    interaction: Interaction,
    client: WalletClient,
    origin: RequestOrigin,
  ): Promise<string> {
    const accountId = interaction.session?.accountId;
    if (interaction.prompt.name !== 'consent' || !accountId)
      throw new AppError(409, 'oauth.wrong_step', 'Please sign in first');
    const requested = requestedConfigurations(interaction);
    if (!requested.length) throw new AppError(400, 'wallet.nothing_requested', NOTHING_REQUESTED);
    const backing = await deps.policy.backing(accountId, deps.clock.now());
    const { provider, issuer } = deps.oidc;
    const grant = new provider.Grant({ accountId, clientId: client.clientId });
    // Exactly what was asked, the way it was asked: scopes for the issuer resource, details as details.
    const { byScope, byDetails } = requestedBy(interaction);
    if (byScope.length) grant.addResourceScope(issuer, byScope.join(' '));
    for (const id of byDetails)
      grant.addRar({ type: CREDENTIAL_DETAIL_TYPE, credential_configuration_id: id });
    const grantId = await grant.save();
    await deps.audit.recordSafely({
      event: 'wallet.authorization_granted',
      userId: accountId,
      ...origin,
      details: { client_id: client.clientId, configurations: requested, backed_by: backing.method },
    });
    return provider.interactionResult(
      ctx.req,
      ctx.res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  }

  return { clientOf, details, consent };
}
export type WalletAuthorization = ReturnType<typeof createWalletAuthorization>;
