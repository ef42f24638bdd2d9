/** Display rules of spec 02 §4 and §9 for the back-office screens (pure, so they are tested on their own). */

/** spec 02 §9: token ids show their first 8 and last 8 characters. */
export function shortTokenId(id: string): string {
  return id.length <= 16 ? id : `${id.slice(0, 8)}...${id.slice(-8)}`;
}

/** spec 02 §9: other ids show their first 8 characters. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** The first letter in upper case ("medium" → "Medium"). */
export function capitalize(text: string): string {
  return text.replace(/^./, (c) => c.toUpperCase());
}

/** spec 02 §9: confidence with one decimal and a percent sign, else "N/A". */
export function formatConfidence(score: number | null | undefined): string {
  return typeof score === 'number' && Number.isFinite(score) ? `${(score * 100).toFixed(1)}%` : 'N/A';
}

export type GrantStatus = 'Revoked' | 'Expired' | 'Active';

/** spec 02 §4: Revoked if not active; Expired if active but past expiry; otherwise Active. */
export function grantStatus(
  item: { is_active: boolean; expires_at: string | null },
  now = Date.now(),
): GrantStatus {
  if (!item.is_active) return 'Revoked';
  if (item.expires_at && Date.parse(item.expires_at) <= now) return 'Expired';
  return 'Active';
}

/** spec 02 §4: days and hours beyond 24 hours, else hours and minutes, or "Expired". */
export function remainingTime(expiresAt: string | null, now = Date.now()): string {
  if (!expiresAt) return '';
  const left = Date.parse(expiresAt) - now;
  if (!(left > 0)) return 'Expired';
  const minutes = Math.floor(left / 60_000);
  const hours = Math.floor(minutes / 60);
  if (hours >= 24) return `${Math.floor(hours / 24)}d ${hours % 24}h`;
  return `${hours}h ${minutes % 60}m`;
}

export function formatDateTime(value: string | null | undefined, fallback = 'Never'): string {
  if (!value) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : date.toLocaleString();
}

export function formatDay(value: string | null | undefined, fallback = 'Never'): string {
  if (!value) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : date.toLocaleDateString();
}

/** spec 02 §2 "Users": Fully Verified when all three facts hold, Partially Verified when any does. */
export function userVerificationLabel(user: {
  age_verified: boolean;
  location_verified: boolean;
  identity_verified: boolean;
}): 'Fully Verified' | 'Partially Verified' | 'Unverified' {
  const facts = [user.age_verified, user.location_verified, user.identity_verified];
  if (facts.every(Boolean)) return 'Fully Verified';
  if (facts.some(Boolean)) return 'Partially Verified';
  return 'Unverified';
}

/** spec 02 §2 "Audit": the first token of the user agent. */
export function userAgentHead(userAgent: string | null | undefined): string {
  return userAgent?.trim().split(/\s+/)[0] ?? '';
}

/** `YYYY-MM-DD` of a date in local time, for `<input type="date">`. */
export function isoDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A local `<input type="date">` day as an ISO instant: the start of the day, or its end when `endOfDay`. */
export function dayToIso(day: string, endOfDay = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = endOfDay ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
