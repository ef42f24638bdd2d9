import type { AdminProfile } from '@attestly/contracts';
import type { Admin } from '../../../db/models/index';

export function presentAdmin(admin: Admin): AdminProfile {
  return {
    id: admin.id,
    email: admin.email,
    full_name: admin.full_name,
    totp_enabled: admin.totp_enabled_at !== null,
    status: admin.status === 'disabled' ? 'disabled' : 'active',
    last_login: admin.last_login_at?.toISOString() ?? null,
    created_at: admin.created_at.toISOString(),
  };
}
