import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type Provider from 'oidc-provider';
import QRCode from 'qrcode';
import type { WalletOffer } from '@attestly/contracts';
import type { Clock } from '../../../lib/clock';
import { deriveKey, randomDigits } from '../../../lib/crypto';
import { AppError } from '../../../errors';
import { ageFacts, CREDENTIAL_CONFIGURATIONS, credentialsValidUntil } from './credentials';
import type { IssuanceAudit } from './issuer';
import { CREDENTIAL_SCOPE, PRE_AUTHORIZED_GRANT, WALLET_CLIENT_ID } from './issuer';
import type { IssuingPolicy } from './issuing-policy';

/**
 * Credential offers (issue 24 item 2; OID4VCI §4.1): a pre-authorized code for the signed-in user, single-use (the
 * provider consumes it with a conditional update, atomic on every replica), lasting OFFER_TTL_SECONDS. The offer is
 * passed by reference: its URI carries the code sealed under a key from the master key, so nothing about it is
 * stored besides the provider's own code and grant, and any replica can answer it.
 */
export const OFFER_TTL_SECONDS = 10 * 60;

export interface OfferOptions {
  /** The provider of this moment (it is rebuilt when signing keys rotate). */
  oidc: { readonly provider: Provider; readonly issuer: string };
  publicUrl: string;
  masterKey: Buffer;
  credentialDays: number;
  policy: IssuingPolicy;
  audit: IssuanceAudit;
  clock: Clock;
}

interface SealedOffer {
  code: string;
  tx: boolean;
  exp: number;
}

export function createOfferService(options: OfferOptions) {
  const key = deriveKey(options.masterKey, 'wallet-credential-offers');
  const offerUri = (token: string) => `${options.publicUrl}/api/v1/wallet/credential-offers/${token}`;

  function sealOffer(offer: SealedOffer): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(offer), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  function openOffer(token: string): SealedOffer | null {
    const raw = Buffer.from(token, 'base64url');
    if (raw.length < 29 || raw.length > 1024) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return JSON.parse(
        Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'),
      ) as SealedOffer;
    } catch {
      return null;
    }
  }

  /** "Add to wallet": refuses (403 with the reason for the screen) when no accepted proof backs a credential. */
  async function create(
    userId: string,
    input: { sameDevice: boolean },
    origin: { ip: string | null; userAgent: string | null },
  ): Promise<WalletOffer> {
    const now = options.clock.now();
    const backing = await options.policy.backing(userId, now);
    const { provider, issuer } = options.oidc;
    const grant = new provider.Grant({ accountId: userId, clientId: WALLET_CLIENT_ID });
    grant.addResourceScope(issuer, CREDENTIAL_SCOPE);
    // The grant outlives the code by the access token's lifetime (issuer.ts accessTokenTTL), and no more.
    const grantId = await (grant.save as (ttl: number) => Promise<string>)(OFFER_TTL_SECONDS + 15 * 60);
    const txCode = input.sameDevice ? null : randomDigits(6);
    const code = await new provider.PreAuthorizedCode({
      accountId: userId,
      clientId: WALLET_CLIENT_ID,
      grantId,
      scope: CREDENTIAL_SCOPE,
      resource: issuer,
      expiresIn: OFFER_TTL_SECONDS,
      ...(txCode ? { txCode } : {}),
    }).save();
    const expiresAt = new Date(Date.now() + OFFER_TTL_SECONDS * 1000);
    const uri = offerUri(sealOffer({ code, tx: !!txCode, exp: Math.floor(expiresAt.getTime() / 1000) }));
    const offerUrl = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(uri)}`;
    await options.audit.recordSafely({
      event: 'wallet.offer_created',
      userId,
      ...origin,
      details: { same_device: input.sameDevice, backed_by: backing.method },
    });
    return {
      credential_offer_uri: uri,
      offer_url: offerUrl,
      qr_svg: await QRCode.toString(offerUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
      tx_code: txCode,
      expires_at: expiresAt.toISOString(),
      credential_configuration_ids: [...CREDENTIAL_CONFIGURATIONS],
      credentials_valid_until: credentialsValidUntil(now, options.credentialDays, backing.until),
      age_over: Object.fromEntries(
        Object.entries(ageFacts(backing.provenMinAge)).map(([age, value]) => [String(age), value]),
      ),
    };
  }

  /** The offer behind a credential_offer_uri (OID4VCI §4.1.1); 404 once it has lapsed. */
  function resolve(token: string) {
    const offer = openOffer(token);
    if (!offer || offer.exp * 1000 <= Date.now())
      throw new AppError(404, 'wallet.offer_not_found', 'This credential offer has expired');
    return {
      credential_issuer: options.oidc.issuer,
      credential_configuration_ids: [...CREDENTIAL_CONFIGURATIONS],
      grants: {
        [PRE_AUTHORIZED_GRANT]: {
          'pre-authorized_code': offer.code,
          ...(offer.tx
            ? {
                tx_code: {
                  input_mode: 'numeric',
                  length: 6,
                  description: 'The six-digit code shown on your Attestly page',
                },
              }
            : {}),
        },
      },
    };
  }

  return { create, resolve };
}
export type OfferService = ReturnType<typeof createOfferService>;
