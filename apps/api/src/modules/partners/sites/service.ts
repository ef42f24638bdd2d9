import { fn, col, Op, UniqueConstraintError, where as sqlWhere } from 'sequelize';
import type * as v from 'valibot';
import {
  MAX_SITES,
  isLoopbackHost,
  redirectUriOutsideDomain,
  type TokenValidation,
  type createSiteBody,
  type updateSiteBody,
} from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import type { Site } from '../../../db/models/index';
import { underPartnerLock } from '../../../db/partner-lock';
import { AppError } from '../../../errors';
import { constantTimeEqual, deriveKey, hmacSha256, randomToken } from '../../../lib/crypto';
import type { UploadedFile } from '../../../middleware/multipart';
import { pairwiseSubject } from '../../../oidc/account';
import { reencodeImage } from '../../../lib/images';
import { forgetClient } from '../../../oidc/clients';
import { artefactKey } from '../../../oidc/artefacts';
import { assertOwnDomain } from './public-suffix';
import type { AuditService } from '../../shared/audit/service';
import type { GrantService } from '../../users/grants/service';
import type { RequestOrigin } from '../../shared/sessions/service';
import { pageOf, type Paging } from '../../shared/paging/page';

/**
 * Client secrets are 256-bit random strings shown once. The database keeps only HMAC-SHA256(secret) under a key
 * derived from the master key (RFC 6819 §5.1.4.1.3): a leaked database yields neither the secret nor anything to
 * brute-force offline without the master key.
 */
export function clientSecretHash(masterKey: Buffer, secret: string): string {
  return hmacSha256(clientSecretKey(masterKey), secret);
}

/** Derived once per master key: every client authentication at /token and /introspect hashes a secret. */
const clientSecretKeys = new WeakMap<Buffer, Buffer>();
function clientSecretKey(masterKey: Buffer): Buffer {
  let key = clientSecretKeys.get(masterKey);
  if (!key) clientSecretKeys.set(masterKey, (key = deriveKey(masterKey, 'oidc-client-secrets')));
  return key;
}

export function clientSecretMatches(masterKey: Buffer, presented: string, storedHash: string): boolean {
  return constantTimeEqual(clientSecretHash(masterKey, presented), storedHash);
}

const newClientSecret = () => `atcs_${randomToken(32)}`;

/** Site icons are shown at 40 px; 256 px covers high-density screens. */
export const ICON_MAX_DIMENSION = 256;

/** The partial unique index behind the duplicate-site rule (migration 20261126130100). */
const LIVE_NAME_INDEX = 'sites_live_name_domain_unique';

/** A site name as stored: the contract trims it; runs of white space inside become one space. */
const tidyName = (name: string) => name.replace(/\s+/g, ' ').trim();

/**
 * Partner sites, which are OpenID Connect clients (DESIGN.md §4, §6; spec 01 §7 "Partner").
 *
 * Duplicate sites (issue 10): a partner cannot have two live sites — active and not deleted — with the same name,
 * compared without regard to case, on the same domain: users could not tell them apart on the consent screen or
 * among their connected sites, nor the partner in the portal. Creating such a site, renaming a site or moving it
 * to a domain so that it would duplicate another, or reactivating a paused site whose name and domain a live site
 * took meanwhile, is answered 409 `sites.duplicate` (error envelope, field `site_name`) and changes nothing.
 * Allowed: several sites of one partner on one domain under different names (a shop and its forum, a web and a
 * mobile client), one name on several domains (country shops), the same name and domain at different partners,
 * and any name for deleted or deactivated sites. A partial unique index enforces the rule in the database
 * (`sites_live_name_domain_unique` on partner_id, lower(site_name), lower(domain) where live), so two racing
 * requests or replicas cannot both succeed; the check before the write only gives the same answer sooner, with
 * full Unicode case folding where SQLite's lower() folds ASCII only. Live duplicates stored before the rule were
 * renamed "Name (2)", "Name (3)", … by the migration (the oldest keeps its name).
 */
export function createSiteService(
  deps: Deps,
  { audit, grants }: { audit: AuditService; grants: GrantService },
) {
  const { db, config, clock } = deps;
  const { Site, SiteIcon, OAuthAuthorization, OidcPayload } = db.models;

  /** A partner's own, undeleted site; another partner's site is "not found", the same as a missing one (IDOR). */
  async function ownSite(partnerId: string, siteId: string): Promise<Site> {
    const site = await Site.findOne({ where: { id: siteId, partner_id: partnerId, deleted_at: null } });
    if (!site) throw new AppError(404, 'sites.not_found', 'Site not found');
    return site;
  }

  const duplicate = (name: string, domain: string) => {
    const message = `You already have an active site named "${name}" on ${domain}; choose another name`;
    return new AppError(409, 'sites.duplicate', message, [{ path: 'site_name', message }]);
  };

  /** Refuses a live site that would share its name and domain with another live site of the partner. */
  async function assertNotDuplicate(partnerId: string, name: string, domain: string, exceptId?: string) {
    const others = await Site.findAll({
      where: {
        partner_id: partnerId,
        deleted_at: null,
        is_active: true,
        ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}),
        [Op.and]: [sqlWhere(fn('LOWER', col('domain')), domain.toLowerCase())],
      },
      attributes: ['site_name'],
    });
    const key = name.toLowerCase();
    if (others.some((other) => tidyName(other.site_name).toLowerCase() === key)) {
      throw duplicate(name, domain);
    }
  }

  /** The database's own answer to a race that the check above could not see. */
  function duplicateOr(error: unknown, name: string, domain: string): unknown {
    if (!(error instanceof UniqueConstraintError)) return error;
    const original = error.original as (Error & { constraint?: string }) | undefined;
    const text = `${original?.constraint ?? ''} ${original?.message ?? ''} ${error.message}`;
    return text.includes(LIVE_NAME_INDEX) ? duplicate(name, domain) : error;
  }

  async function authorizationCounts(siteIds: string[]): Promise<Map<string, number>> {
    if (siteIds.length === 0) return new Map();
    const rows = (await OAuthAuthorization.findAll({
      where: { site_id: siteIds, revoked_at: null, expires_at: { [Op.gt]: clock.now() } },
      attributes: ['site_id', [fn('COUNT', col('id')), 'count']],
      group: ['site_id'],
      raw: true,
    })) as unknown as Array<{ site_id: string; count: number | string }>;
    return new Map(rows.map((row) => [row.site_id, Number(row.count)]));
  }

  function audited(
    event: string,
    partnerId: string,
    site: Site,
    origin: RequestOrigin,
    details: Record<string, unknown> = {},
  ) {
    return audit.recordSafely({
      event,
      severity: event === 'partner.site_deleted' ? 'warning' : 'info',
      partnerId,
      ...origin,
      details: { site_id: site.id, client_id: site.client_id, site_name: site.site_name, ...details },
    });
  }

  return {
    ownSite,
    authorizationCounts,
    async list(partnerId: string, paging: Paging) {
      const { rows, total } = await pageOf(
        Site,
        { where: { partner_id: partnerId, deleted_at: null }, order: [['created_at', 'DESC']] },
        paging,
      );
      return { sites: rows, total, counts: await authorizationCounts(rows.map((row) => row.id)) };
    },

    async create(
      partnerId: string,
      // `sandbox` is optional for callers other than the partner API (back office, CLI).
      body: Omit<v.InferOutput<typeof createSiteBody>, 'sandbox'> & { sandbox?: boolean },
      origin: RequestOrigin,
    ) {
      const now = clock.now();
      const siteName = tidyName(body.site_name);
      assertOwnDomain(body.domain);
      await assertNotDuplicate(partnerId, siteName, body.domain);
      const secret = body.client_type === 'confidential' ? newClientSecret() : null;
      // Counted and inserted under the partner's lock: racing requests cannot pass the limit together.
      const site = await underPartnerLock(db, partnerId, async (transaction) => {
        const held = await Site.count({ where: { partner_id: partnerId, deleted_at: null }, transaction });
        if (held >= MAX_SITES) {
          throw new AppError(
            409,
            'sites.limit',
            `You can have at most ${MAX_SITES} sites. Delete one you no longer use first.`,
          );
        }
        return Site.create(
          {
            partner_id: partnerId,
            client_id: `atc_${randomToken(18)}`,
            client_type: body.client_type,
            client_secret_hash: secret ? clientSecretHash(config.masterKey, secret) : null,
            site_name: siteName,
            domain: body.domain,
            description: body.description,
            redirect_uris: body.redirect_uris,
            allowed_scopes: body.allowed_scopes,
            sandbox: (body.sandbox ?? false) || isLoopbackHost(body.domain.replace(/:\d+$/, '')),
            icon_key: null,
            deleted_at: null,
            created_at: now,
            updated_at: now,
          },
          { transaction },
        );
      }).catch((error: unknown) => {
        throw duplicateOr(error, siteName, body.domain);
      });
      await audited('partner.site_created', partnerId, site, origin, {
        allowed_scopes: site.allowed_scopes,
        redirect_uris: site.redirect_uris,
      });
      return { site, clientSecret: secret };
    },

    async update(
      partnerId: string,
      siteId: string,
      body: v.InferOutput<typeof updateSiteBody>,
      origin: RequestOrigin,
    ) {
      const site = await ownSite(partnerId, siteId);
      const changes = Object.fromEntries(
        Object.entries({ ...body, site_name: body.site_name && tidyName(body.site_name) }).filter(
          ([, value]) => value !== undefined,
        ),
      );
      // The domain and the redirect URIs may change apart: check the site as it would be after the change. A site
      // declared before public suffixes were refused keeps its domain until it is changed.
      if (body.domain !== undefined) assertOwnDomain(body.domain);
      const domain = body.domain ?? site.domain;
      const siteName = (changes.site_name as string | undefined) ?? site.site_name;
      for (const uri of body.redirect_uris ?? site.redirect_uris) {
        const problem = redirectUriOutsideDomain(uri, domain, site.sandbox);
        if (problem) {
          throw new AppError(422, 'validation.failed', problem, [
            { path: 'redirect_uris', message: problem },
          ]);
        }
      }
      const live = body.is_active ?? site.is_active;
      const identityChanged =
        siteName !== site.site_name || domain !== site.domain || live !== site.is_active;
      if (live && identityChanged) await assertNotDuplicate(partnerId, siteName, domain, site.id);
      await site.update({ ...changes, updated_at: clock.now() }).catch((error: unknown) => {
        throw duplicateOr(error, siteName, domain);
      });
      forgetClient(db, site.client_id);
      await audited('partner.site_updated', partnerId, site, origin, { fields: Object.keys(changes) });
      return site;
    },

    async rotateSecret(partnerId: string, siteId: string, origin: RequestOrigin) {
      const site = await ownSite(partnerId, siteId);
      if (site.client_type !== 'confidential') {
        throw new AppError(409, 'sites.public_client', 'Public clients have no client secret');
      }
      const secret = newClientSecret();
      await site.update({
        client_secret_hash: clientSecretHash(config.masterKey, secret),
        updated_at: clock.now(),
      });
      forgetClient(db, site.client_id);
      await audited('partner.site_secret_rotated', partnerId, site, origin);
      return { site, clientSecret: secret };
    },

    /** Deletes a site: it stops being a client at once and every grant users gave it is revoked (with events). */
    async remove(partnerId: string, siteId: string, origin: RequestOrigin) {
      const site = await ownSite(partnerId, siteId);
      const now = clock.now();
      await site.update({ deleted_at: now, is_active: false, icon_key: null, updated_at: now });
      forgetClient(db, site.client_id);
      await SiteIcon.destroy({ where: { site_id: site.id } });
      const revoked = await grants.revokeForSite(site.id, 'site_deleted', { partnerId, origin });
      await audited('partner.site_deleted', partnerId, site, origin, { revoked_grants: revoked });
    },

    async setIcon(partnerId: string, siteId: string, file: UploadedFile, origin: RequestOrigin) {
      const site = await ownSite(partnerId, siteId);
      // Decoded and drawn again (lib/images.ts): bounded dimensions, no EXIF or trailing bytes, non-images refused.
      const icon = await reencodeImage(Buffer.from(file.bytes), {
        maxDimension: ICON_MAX_DIMENSION,
        unreadableMessage: 'Site icon must be a PNG, JPG, GIF or WebP image',
        field: 'icon',
      });
      const key = randomToken(24);
      await db.sequelize.transaction(async (transaction) => {
        await SiteIcon.destroy({ where: { site_id: site.id }, transaction });
        await SiteIcon.create(
          { site_id: site.id, key, content_type: icon.contentType, bytes: icon.bytes },
          { transaction },
        );
        await site.update({ icon_key: key, updated_at: clock.now() }, { transaction });
      });
      forgetClient(db, site.client_id);
      await audited('partner.site_updated', partnerId, site, origin, { fields: ['icon'] });
      return site;
    },

    async icon(key: string) {
      return SiteIcon.findOne({ where: { key }, attributes: ['content_type', 'bytes'] });
    },

    /**
     * POST /partners/validate-token: RFC 7662 semantics for the partner's own sites. A token that is unknown,
     * expired, revoked or issued to someone else's site — or, for a sandbox key, to a live site — is simply
     * inactive, so the answer reveals nothing more.
     */
    async validateToken(
      partnerId: string,
      token: string,
      scope: { sandboxOnly?: boolean } = {},
    ): Promise<TokenValidation> {
      const inactive: TokenValidation = { active: false };
      const nowMs = Date.now();
      // Stored under the hash of its value, like every bearer artefact (oidc/artefacts.ts).
      const row = await OidcPayload.findOne({ where: { model: 'AccessToken', id: artefactKey(token) } });
      if (!row || (row.expires_at && row.expires_at.getTime() <= nowMs)) return inactive;
      const payload = JSON.parse(row.payload) as {
        clientId: string;
        accountId: string;
        scope?: string;
        iat: number;
        exp: number;
        expiresWithSession?: boolean;
        sessionUid?: string;
      };
      if (payload.exp * 1000 <= nowMs) return inactive;
      const site = await Site.findOne({
        where: {
          client_id: payload.clientId,
          partner_id: partnerId,
          deleted_at: null,
          // A sandbox API key sees its sandbox sites' tokens only (issue 21 item 7).
          ...(scope.sandboxOnly ? { sandbox: true } : {}),
        },
      });
      if (!site || !site.is_active) return inactive;
      if (payload.expiresWithSession && payload.sessionUid) {
        // Tokens without offline_access end with the user's sign-in session at the provider (oidc-provider rule).
        const session = await OidcPayload.findOne({
          where: {
            model: 'Session',
            uid: payload.sessionUid,
            [Op.or]: [{ expires_at: null }, { expires_at: { [Op.gt]: new Date(nowMs) } }],
          },
          attributes: ['id'],
        });
        if (!session) return inactive;
      }
      return {
        active: true,
        scope: payload.scope ?? '',
        client_id: payload.clientId,
        site_id: site.id,
        sub: pairwiseSubject(config.masterKey, partnerId, payload.accountId),
        token_type: 'Bearer',
        exp: payload.exp,
        iat: payload.iat,
      };
    },
  };
}
export type SiteService = ReturnType<typeof createSiteService>;
