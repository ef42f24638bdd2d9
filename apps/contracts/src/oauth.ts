import * as v from 'valibot';
import { SCOPES, type Scope } from './constants';
import { email, currentPassword } from './fields';

/** What each scope asks, in the words the consent screen uses (spec 01 §3 "Scopes"; DESIGN.md §4). */
export const SCOPE_DESCRIPTIONS: Record<Scope, { title: string; description: string }> = {
  basic_info: {
    title: 'Basic information',
    description: 'That you have an Attestly account (an identifier for this partner only)',
  },
  profile: { title: 'Your name', description: 'The name on your Attestly profile' },
  email: { title: 'Your e-mail address', description: 'Your e-mail address and whether you confirmed it' },
  AGE_12: {
    title: 'Age 12 or over',
    description: 'Whether you are at least 12 years old (not your birth date)',
  },
  AGE_16: {
    title: 'Age 16 or over',
    description: 'Whether you are at least 16 years old (not your birth date)',
  },
  AGE_18: {
    title: 'Age 18 or over',
    description: 'Whether you are at least 18 years old (not your birth date)',
  },
  AGE_21: {
    title: 'Age 21 or over',
    description: 'Whether you are at least 21 years old (not your birth date)',
  },
  location_verification: { title: 'Verified location', description: 'Your verified country and state' },
  identity_verification: {
    title: 'Verified identity',
    description: 'Whether your identity has been verified',
  },
};

export const CONSENT_BASIC_INFO_REQUIRED = 'You must grant at least basic information access';
export const CONSENT_DENIED = 'User denied the request';

/** The age threshold an AGE_NN scope asks about, or null for other scopes. */
export function scopeAgeThreshold(scope: string): number | null {
  const match = /^AGE_(\d{2})$/.exec(scope);
  return match ? Number(match[1]) : null;
}

/** The highest age threshold among scopes (a token granting AGE_18 and AGE_21 answers for 21). */
export function ageThresholdOf(scopes: readonly string[]): number | null {
  const thresholds = scopes.map(scopeAgeThreshold).filter((value): value is number => value !== null);
  return thresholds.length ? Math.max(...thresholds) : null;
}

export const interactionUidParams = v.object({
  uid: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{10,64}$/, 'This sign-in request has expired')),
});

/** Sign-in inside an authorization request: the same fields and messages as /login (spec 01 §5). */
export const interactionLoginBody = v.object({
  email,
  password: currentPassword(),
  rememberMe: v.optional(v.boolean('rememberMe must be true or false'), false),
});

export const consentBody = v.object({
  scopes: v.pipe(
    v.array(v.picklist(SCOPES, 'Unknown scope'), 'scopes must be a list'),
    v.check((list) => list.includes('basic_info'), CONSENT_BASIC_INFO_REQUIRED),
  ),
});
export type ConsentBody = v.InferInput<typeof consentBody>;

export interface InteractionScope {
  scope: Scope;
  title: string;
  description: string;
  required: boolean;
  /** The user has already proven what this scope asks (always true for basic_info). */
  proven: boolean;
  /** Granted before for this site; pre-selected on the consent screen. */
  previously_granted: boolean;
}

/** GET /oauth/interactions/{uid}: what the login or consent screen shows. */
export interface InteractionDetails {
  uid: string;
  prompt: 'login' | 'consent';
  /** Why the provider asks (e.g. `op_scopes_missing`, `consent_prompt`). */
  reasons: string[];
  site: {
    client_id: string;
    site_name: string;
    domain: string;
    icon_url: string | null;
    partner_name: string;
    /** Where the browser goes back to after this step: the host of the request's redirect URI (issue 10 item 7). */
    redirect_host: string;
    /** A partner's test site: the screens warn not to enter real data (issue 21 item 14). */
    sandbox: boolean;
  };
  scopes: InteractionScope[];
  /** Scopes the user has not proven yet; the screen offers to verify now. */
  unproven_scopes: Scope[];
  /** Signed-in user for the consent step (null on the login step). */
  user: { email: string; full_name: string } | null;
  /** Where the screen sends the user to verify and come back to this consent. */
  verify_url: string | null;
  /** A registered wallet asking for credentials (OpenID4VCI authorization code flow); null for partner sites. */
  wallet: WalletAuthorizationRequest | null;
}

/** What a wallet's authorization request asks for, and whether the issuing policy allows it (issue 24 item 3). */
export interface WalletAuthorizationRequest {
  credentials: Array<{ id: string; name: string }>;
  /** What the credentials would state (`{"18": true, "21": false, …}`); null before sign-in or when refused. */
  age_over: Record<string, boolean> | null;
  /** The last day the credentials would be valid (YYYY-MM-DD); null when none can be issued. */
  valid_until: string | null;
  /** Why no credential can be issued to this user (the issuing policy's words); null when it can. */
  refused: string | null;
}

export interface InteractionRedirect {
  redirect_to: string;
}

/** A user's grant to a partner site, shown on /tokens (spec 01 §3 "Access token"). */
export interface UserToken {
  id: string;
  site_id: string;
  site_name: string;
  partner_id: string;
  partner_name: string;
  age_threshold: number | null;
  scopes: Scope[];
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked: boolean;
  revoked_at: string | null;
  jurisdiction: string | null;
}

export interface ConnectedPartner {
  id: string;
  partner_name: string;
  sites: Array<{ id: string; site_name: string; domain: string }>;
  scopes: Scope[];
  active_tokens: number;
  first_connected_at: string;
  last_used_at: string | null;
}

export const userTokenIdParams = v.object({
  id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{10,64}$/, 'Token not found')),
});
export const connectedPartnerIdParams = v.object({ id: v.pipe(v.string(), v.uuid('Partner not found')) });
