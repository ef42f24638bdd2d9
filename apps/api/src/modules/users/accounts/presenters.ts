import type { SessionSummary, UserProfile } from '@attestly/contracts';
import type { InferAttributes } from 'sequelize';
import type { Session, User } from '../../../db/models/index';

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const live = (until: Date | null, now: Date) => until !== null && until > now;

export function profilePhotoUrl(key: string | null): string | null {
  return key ? `/api/v1/media/profile-photos/${key}` : null;
}

/** A user as their own profile (spec 01 §3 "User profile"); proven facts count only until they expire. */
export function presentUser(user: InferAttributes<User>, now: Date): UserProfile {
  const ageVerified = user.proven_min_age !== null && live(user.age_verified_until, now);
  const locationVerified = live(user.location_verified_until, now);
  const identityVerified = live(user.identity_verified_until, now);
  return {
    id: user.id,
    full_name: user.full_name,
    email: user.email,
    phone: user.phone,
    country: user.country,
    state: user.state,
    city: user.city,
    profile_image_url: profilePhotoUrl(user.profile_photo_key),
    email_verified_at: iso(user.email_verified_at),
    phone_verified_at: iso(user.phone_verified_at),
    age_verified: ageVerified,
    location_verified: locationVerified,
    identity_verified: identityVerified,
    age_verified_at: ageVerified ? iso(user.age_verified_at) : null,
    location_verified_at: locationVerified ? iso(user.location_verified_at) : null,
    identity_verified_at: identityVerified ? iso(user.identity_verified_at) : null,
    is_active: user.is_active,
    is_verified: user.email_verified_at !== null,
    is_partner: user.is_partner,
    created_at: user.created_at.toISOString(),
    updated_at: user.updated_at.toISOString(),
  };
}

export function presentSession(session: Session, currentId: string): SessionSummary {
  return {
    id: session.id,
    current: session.id === currentId,
    remember: session.remember,
    ip_address: session.ip_address,
    user_agent: session.user_agent,
    created_at: session.created_at.toISOString(),
    last_used_at: iso(session.last_used_at),
    expires_at: session.expires_at.toISOString(),
  };
}
