/** Constants shared by the API, the web app, the CLI and the SDK (spec 01 §3, §9). */

export const API_BASE_PATH = '/api/v1';

/**
 * Product scopes. basic_info (always granted) yields only a pairwise subject; `profile` (the display name) and
 * `email` (address and whether it is verified) are separate, optional and declinable on the consent screen, so
 * partners cannot link users across partners through shared contact data (issue 15 item 4; DESIGN.md §4).
 */
export const SCOPES = [
  'basic_info',
  'profile',
  'email',
  'AGE_12',
  'AGE_16',
  'AGE_18',
  'AGE_21',
  'location_verification',
  'identity_verification',
] as const;
export type Scope = (typeof SCOPES)[number];
export const DEFAULT_SITE_SCOPES: readonly Scope[] = ['basic_info', 'AGE_18'];

export const ACCOUNT_KINDS = ['user', 'partner', 'admin', 'admin_setup'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** Bearer tokens carry their kind as a readable prefix so a leaked token is recognisable in logs and scanners. */
export const TOKEN_PREFIX: Record<AccountKind, string> = {
  user: 'atu_',
  partner: 'atp_',
  admin: 'ata_',
  admin_setup: 'ats_',
};

/**
 * Every ISO 3166-1 alpha-2 country code (249), plus XK (Kosovo: user-assigned, but what the on-box GeoLite2 data
 * reports there), so that anyone can declare where they live and prove it (issue 25 item 3). Names come from the
 * runtime's own CLDR data (Intl.DisplayNames), in the browser and on the server alike: no name table to ship.
 */
// prettier-ignore
export const COUNTRY_CODES = [
  'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AQ', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ', 'BA', 'BB', 'BD',
  'BE', 'BF', 'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS', 'BT', 'BV', 'BW', 'BY', 'BZ', 'CA',
  'CC', 'CD', 'CF', 'CG', 'CH', 'CI', 'CK', 'CL', 'CM', 'CN', 'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ', 'DE',
  'DJ', 'DK', 'DM', 'DO', 'DZ', 'EC', 'EE', 'EG', 'EH', 'ER', 'ES', 'ET', 'FI', 'FJ', 'FK', 'FM', 'FO', 'FR', 'GA',
  'GB', 'GD', 'GE', 'GF', 'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GS', 'GT', 'GU', 'GW', 'GY', 'HK',
  'HM', 'HN', 'HR', 'HT', 'HU', 'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR', 'IS', 'IT', 'JE', 'JM', 'JO', 'JP',
  'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KP', 'KR', 'KW', 'KY', 'KZ', 'LA', 'LB', 'LC', 'LI', 'LK', 'LR', 'LS', 'LT',
  'LU', 'LV', 'LY', 'MA', 'MC', 'MD', 'ME', 'MF', 'MG', 'MH', 'MK', 'ML', 'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS',
  'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ', 'NA', 'NC', 'NE', 'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ',
  'OM', 'PA', 'PE', 'PF', 'PG', 'PH', 'PK', 'PL', 'PM', 'PN', 'PR', 'PS', 'PT', 'PW', 'PY', 'QA', 'RE', 'RO', 'RS',
  'RU', 'RW', 'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI', 'SJ', 'SK', 'SL', 'SM', 'SN', 'SO', 'SR', 'SS', 'ST',
  'SV', 'SX', 'SY', 'SZ', 'TC', 'TD', 'TF', 'TG', 'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO', 'TR', 'TT', 'TV', 'TW',
  'TZ', 'UA', 'UG', 'UM', 'US', 'UY', 'UZ', 'VA', 'VC', 'VE', 'VG', 'VI', 'VN', 'VU', 'WF', 'WS', 'XK', 'YE', 'YT',
  'ZA', 'ZM', 'ZW',
] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

const COUNTRY_CODE_SET: ReadonlySet<string> = new Set(COUNTRY_CODES);
export const isCountryCode = (value: string): value is CountryCode => COUNTRY_CODE_SET.has(value);

let regionNames: Intl.DisplayNames | null = null;
/** The English name of a country code ('DE' → 'Germany'); the code itself where the runtime has no name. */
export function countryName(code: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Every country with its name, sorted by name (the profile's searchable list). */
export function countryChoices(): Array<{ code: CountryCode; name: string }> {
  return COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
    a.name.localeCompare(b.name, 'en'),
  );
}

export const BUSINESS_TYPES = [
  'Gaming',
  'E-commerce',
  'Social Media',
  'Dating',
  'Financial Services',
  'Healthcare',
  'Education',
  'Entertainment',
  'Other',
] as const;

export const LIMITS = {
  passwordMinLength: 8,
  passwordMaxLength: 256,
  jsonBodyBytes: 100 * 1024,
  profilePhotoBytes: 1024 * 1024,
  /** Profile photos are stored re-encoded with their longest side at most this many pixels. */
  profilePhotoPixels: 512,
  documentBytes: 10 * 1024 * 1024,
  videoBytes: 20 * 1024 * 1024,
  videoSeconds: 5,
  listDefaultLimit: 100,
  listMaxLimit: 500,
} as const;

export const AUDIT_EVENTS = [
  'user.registered',
  'user.login_succeeded',
  'user.login_failed',
  'user.locked_out',
  'user.logged_out',
  'user.token_refreshed',
  'user.profile_updated',
  'user.profile_photo_updated',
  'user.password_changed',
  'user.password_reset_requested',
  'user.password_reset',
  'user.email_verification_sent',
  'user.email_verified',
  'user.email_change_requested',
  'user.email_changed',
  'user.phone_verification_sent',
  'user.phone_verified',
  'user.session_revoked',
  'user.account_deleted',
  'user.data_exported',
  'newsletter.subscribed',
  'newsletter.confirmed',
  'newsletter.unsubscribed',
  'partner.registered',
  'partner.login_succeeded',
  'partner.login_failed',
  'partner.logged_out',
  'partner.profile_updated',
  'partner.site_created',
  'partner.site_updated',
  'partner.site_deleted',
  'partner.site_secret_rotated',
  'oauth.consent_granted',
  'oauth.consent_denied',
  'oauth.token_issued',
  'oauth.token_revoked',
  'verification.completed',
  'verification.failed',
  'verification.submitted',
  'verification.reviewed',
  'verification.media_purged',
] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number] | (string & {});
