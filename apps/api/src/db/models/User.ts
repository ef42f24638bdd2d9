import { accountColumns, flag, nullable, required, signInColumns, sql, stamp, stampedTable } from './columns';

export class User extends stampedTable('users', {
  ...accountColumns(),
  full_name: required(sql.string(120)),
  phone: nullable(sql.string(32)),
  country: nullable(sql.string(2)),
  state: nullable(sql.string(100)),
  city: nullable(sql.string(100)),
  email_verified_at: nullable(sql.date()),
  phone_verified_at: nullable(sql.date()),
  /** Phone number awaiting confirmation by SMS code; becomes `phone` once verified. */
  pending_phone: nullable(sql.string(32)),
  /** Key of the row in user_photos; part of the photo's URL, so a new upload gets a new URL. */
  profile_photo_key: nullable(sql.string(64)),
  /** Proven facts (DESIGN.md §5), kept here so every read of the profile is one row. */
  proven_min_age: nullable(sql.integer()),
  age_verified_at: nullable(sql.date()),
  age_verified_until: nullable(sql.date()),
  location_country: nullable(sql.string(2)),
  location_state: nullable(sql.string(100)),
  location_verified_at: nullable(sql.date()),
  location_verified_until: nullable(sql.date()),
  identity_verified_at: nullable(sql.date()),
  identity_verified_until: nullable(sql.date()),
  is_active: flag(true),
  is_partner: flag(false),
  ...signInColumns(),
  deleted_at: nullable(sql.date()),
  created_at: stamp(),
  updated_at: stamp(),
}) {}
