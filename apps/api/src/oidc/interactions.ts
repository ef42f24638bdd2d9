import type { Context } from 'koa';
import type { Grant, Interaction } from 'oidc-provider';
import {
  CONSENT_DENIED,
  SCOPES,
  SCOPE_DESCRIPTIONS,
  type InteractionDetails,
  type Scope,
} from '@attestly/contracts';
import type { Deps } from '../core/deps';
import { AppError } from '../errors';
import type { AuditService } from '../modules/shared/audit/service';
import type { GrantService } from '../modules/users/grants/service';
import type { RequestOrigin } from '../modules/shared/sessions/service';
import { siteIconPath } from '../lib/site-icons';
import { createWalletAuthorization } from '../modules/users/wallet/authorization';
import { provenScopes } from './account';
import type { Oidc } from './index';

const PROTOCOL_SCOPES = ['openid', 'offline_access'];
/** Scopes that prove nothing and always hold: the subject, and the optional name and e-mail. */
const CONTACT_SCOPES: string[] = ['basic_info', 'profile', 'email'];
const isProductScope = (scope: string): scope is Scope => (SCOPES as readonly string[]).includes(scope);

const expired = () =>
  new AppError(
    404,
    'oauth.interaction_not_found',
    'This sign-in request has expired. Please return to the site and try again.',
  );

/**
 * The provider's interaction API behind the SPA's login and consent screens (DESIGN.md §4). Each step is bound to
 * the browser that started the authorization request by the provider's signed interaction cookie; a uid from
 * another browser, or a stale one, is "not found".
 */
export function createInteractions(
  oidc: Oidc,
  deps: Pick<Deps, 'db' | 'clock'>,
  { grants, audit }: { grants: GrantService; audit: AuditService },
) {
  const { User, Site, Partner } = deps.db.models;
  // Registered wallets asking for credentials (OpenID4VCI authorization code flow) share these screens.
  const wallets = createWalletAuthorization({
    oidc,
    clients: oidc.wallet.clients,
    policy: oidc.wallet.policy,
    credentialDays: oidc.wallet.credentialDays,
    audit,
    clock: deps.clock,
  });

  async function load(ctx: Context, uid: string): Promise<Interaction> {
    let interaction: Interaction;
    try {
      interaction = await oidc.provider.interactionDetails(ctx.req, ctx.res);
    } catch {
      throw expired();
    }
    if (interaction.uid !== uid) throw expired();
    return interaction;
  }

  function requestedScopes(interaction: Interaction): string[] {
    return String(interaction.params.scope ?? '')
      .split(' ')
      .filter(Boolean);
  }

  /** The product scopes on offer: those requested, with basic_info always first and always granted. */
  function offeredScopes(interaction: Interaction): Scope[] {
    const requested = requestedScopes(interaction);
    return SCOPES.filter((scope) => scope === 'basic_info' || requested.includes(scope));
  }

  /** The real destination: the host the provider will send the browser back to (validated against the site). */
  function redirectHost(interaction: Interaction): string {
    try {
      return new URL(String(interaction.params.redirect_uri)).host;
    } catch {
      return '';
    }
  }

  async function siteOf(interaction: Interaction) {
    const site = await Site.findOne({
      where: { client_id: String(interaction.params.client_id), deleted_at: null },
    });
    if (!site) throw expired();
    const partner = await Partner.findByPk(site.partner_id, { attributes: ['company_name'] });
    return { site, partnerName: partner?.company_name ?? '' };
  }

  async function details(ctx: Context, uid: string): Promise<InteractionDetails> {
    const interaction = await load(ctx, uid);
    const accountId = interaction.session?.accountId;
    const wallet = await wallets.clientOf(interaction);
    if (wallet) {
      const user = accountId ? await User.findByPk(accountId) : null;
      return {
        uid,
        prompt: interaction.prompt.name === 'login' ? 'login' : 'consent',
        reasons: interaction.prompt.reasons,
        ...(await wallets.details(interaction, wallet)),
        user: user ? { email: user.email, full_name: user.full_name } : null,
      };
    }
    const { site, partnerName } = await siteOf(interaction);
    const user = accountId ? await User.findByPk(accountId) : null;
    const proven = user ? provenScopes(user, deps.clock.now()) : null;
    const grant = interaction.grantId ? await oidc.provider.Grant.find(interaction.grantId) : undefined;
    const previously = new Set(grant ? grant.getOIDCScope().split(' ') : []);
    const offered = offeredScopes(interaction);
    const unproven = proven ? offered.filter((scope) => !proven[scope]) : [];
    const consentPath = `/oauth/consent?uid=${encodeURIComponent(uid)}`;
    return {
      uid,
      prompt: interaction.prompt.name === 'login' ? 'login' : 'consent',
      reasons: interaction.prompt.reasons,
      site: {
        client_id: site.client_id,
        site_name: site.site_name,
        domain: site.domain,
        icon_url: site.icon_key ? siteIconPath(site.icon_key) : null,
        partner_name: partnerName,
        redirect_host: redirectHost(interaction),
        sandbox: site.sandbox,
      },
      scopes: offered.map((scope) => ({
        scope,
        ...SCOPE_DESCRIPTIONS[scope],
        required: scope === 'basic_info',
        proven: proven ? proven[scope] : CONTACT_SCOPES.includes(scope),
        previously_granted: previously.has(scope),
      })),
      unproven_scopes: unproven,
      user: user ? { email: user.email, full_name: user.full_name } : null,
      verify_url: unproven.length ? `/verification?return_to=${encodeURIComponent(consentPath)}` : null,
      wallet: null,
    };
  }

  /** A registered wallet's consent (modules/users/wallet/authorization.ts); 404 for a partner site's request. */
  async function walletConsent(ctx: Context, uid: string, origin: RequestOrigin): Promise<string> {
    const interaction = await load(ctx, uid);
    const wallet = await wallets.clientOf(interaction);
    if (!wallet) throw expired();
    return wallets.consent(ctx, interaction, wallet, origin);
  }

  async function login(ctx: Context, uid: string, accountId: string, remember: boolean): Promise<string> {
    const interaction = await load(ctx, uid);
    if (interaction.prompt.name !== 'login') {
      throw new AppError(409, 'oauth.wrong_step', 'You are already signed in for this request');
    }
    return oidc.provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { accountId, remember } },
      { mergeWithLastSubmission: false },
    );
  }

  async function consent(
    ctx: Context,
    uid: string,
    chosenScopes: Scope[],
    origin: RequestOrigin,
  ): Promise<string> {
    const interaction = await load(ctx, uid);
    const accountId = interaction.session?.accountId;
    if (interaction.prompt.name !== 'consent' || !accountId) {
      throw new AppError(409, 'oauth.wrong_step', 'Please sign in first');
    }
    const { site } = await siteOf(interaction);
    const requested = requestedScopes(interaction);
    const offered = offeredScopes(interaction);
    const chosen = offered.filter((scope) => chosenScopes.includes(scope));
    const declined = requested.filter((scope) => isProductScope(scope) && !chosen.includes(scope));
    const protocol = requested.filter((scope) => PROTOCOL_SCOPES.includes(scope));

    const { Grant } = oidc.provider;
    const grant: Grant =
      (interaction.grantId ? await Grant.find(interaction.grantId) : undefined) ??
      new Grant({ accountId, clientId: site.client_id });
    // What this answer decides replaces earlier answers for the same scopes; other earlier answers stand, so
    // consent is remembered per site and scope set (and prompt=consent can change it).
    const decided = new Set([...chosen, ...declined, ...protocol]);
    const keep = (list: string | undefined) =>
      (list ?? '').split(' ').filter((scope) => scope && !decided.has(scope));
    const granted = [...new Set([...keep(grant.openid?.scope), ...protocol, ...chosen])];
    const rejected = [...new Set([...keep(grant.rejected?.openid?.scope), ...declined])];
    grant.openid = { ...grant.openid, scope: granted.join(' ') };
    grant.rejected = rejected.length ? { openid: { scope: rejected.join(' ') } } : undefined;
    const missing = interaction.prompt.details as {
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(resource, scopes);
    const grantId = await grant.save();

    const user = await User.findByPk(accountId);
    const grantedProduct = granted.filter(isProductScope);
    const now = deps.clock.now();
    const locationShared =
      grantedProduct.includes('location_verification') &&
      user &&
      provenScopes(user, now).location_verification;
    await grants.recordConsent({
      grantId,
      userId: accountId,
      partnerId: site.partner_id,
      siteId: site.id,
      clientId: site.client_id,
      scopes: grantedProduct,
      expiresAt: new Date((grant.exp ?? Math.floor(Date.now() / 1000) + 365 * 86400) * 1000),
      jurisdiction:
        locationShared && user
          ? [user.location_country, user.location_state].filter(Boolean).join('-')
          : null,
    });
    await audit.recordSafely({
      event: 'oauth.consent_granted',
      userId: accountId,
      partnerId: site.partner_id,
      ...origin,
      details: {
        grant_id: grantId,
        site_id: site.id,
        client_id: site.client_id,
        scopes: grantedProduct,
        declined,
      },
    });
    return oidc.provider.interactionResult(
      ctx.req,
      ctx.res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  }

  async function abort(ctx: Context, uid: string, origin: RequestOrigin): Promise<string> {
    const interaction = await load(ctx, uid);
    const site = await Site.findOne({
      where: { client_id: String(interaction.params.client_id) },
      attributes: ['id', 'partner_id', 'client_id'],
    });
    await audit.recordSafely({
      event: 'oauth.consent_denied',
      userId: interaction.session?.accountId ?? null,
      partnerId: site?.partner_id ?? null,
      ...origin,
      details: {
        site_id: site?.id ?? null,
        client_id: String(interaction.params.client_id ?? '') || null,
        prompt: interaction.prompt.name,
      },
    });
    // RFC 6749 §4.1.2.1: the client receives error=access_denied at its redirect URI.
    return oidc.provider.interactionResult(
      ctx.req,
      ctx.res,
      { error: 'access_denied', error_description: CONSENT_DENIED },
      { mergeWithLastSubmission: false },
    );
  }

  return { details, login, consent, walletConsent, abort };
}
export type Interactions = ReturnType<typeof createInteractions>;
