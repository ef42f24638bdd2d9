import type {
  AdminProfile,
  AdminSystemHealth,
  AdminSystemStats,
  AdminTokenResponse,
} from '@attestly/contracts';
import { tokens } from '../../auth/token-storage';

/** Canned answers for the back-office component tests (shapes from apps/contracts/src/admin.ts). */
export const ADMIN: AdminProfile = {
  id: '0f9b7c1e-2a4d-4e8f-9b1c-3d5e7f9a1b2c',
  email: 'root@attestly.test',
  full_name: 'Root Admin',
  totp_enabled: true,
  status: 'active',
  last_login: null,
  created_at: '2026-11-01T10:00:00.000Z',
};

export const TOKEN_ANSWER: AdminTokenResponse = {
  access_token: 'ata_full_token',
  token_type: 'Bearer',
  expires_at: '2099-01-01T00:00:00.000Z',
  idle_timeout_seconds: 1800,
  admin: ADMIN,
};

export const STATS: AdminSystemStats = {
  total_users: 1200,
  verified_users: 800,
  active_users: 1100,
  registrations_24h: 12,
  total_partners: 7,
  active_partners: 5,
  total_tokens: 340,
  total_verifications: 2500,
  verifications_24h: 40,
  success_rate: 0.9123,
  pending_reviews: 3,
  generated_at: '2026-11-26T08:00:00.000Z',
};

export const HEALTH: AdminSystemHealth = {
  overall_status: 'degraded',
  database: { status: 'healthy', error: null, latency_ms: 2, dialect: 'sqlite' },
  services: {
    mail: { status: 'unhealthy', error: 'SMTP connection refused', details: {} },
    vision: { status: 'healthy', error: null },
  },
  metrics: { recent_api_calls: 321, active_users_last_hour: 9, healthy_services: 1, total_services: 2 },
  checked_at: '2026-11-26T08:00:00.000Z',
};

/** Signs the test's browser in as an administrator. */
export function signInAdmin(): void {
  tokens.set('admin', TOKEN_ANSWER.access_token, { remember: false, expiresAt: TOKEN_ANSWER.expires_at });
  sessionStorage.setItem('adminProfile', JSON.stringify(ADMIN));
}

export const DASHBOARD_FAKES = {
  'GET /api/v1/admin/system/stats': { body: STATS },
  'GET /api/v1/admin/system/health': { body: HEALTH },
  'GET /api/v1/admin/system/alerts': {
    body: {
      alerts: [
        {
          id: 'review_backlog',
          type: 'review_backlog',
          message: '3 verifications have waited for review for more than 24 hours',
          severity: 'warning',
          created_at: '2026-11-26T07:00:00.000Z',
        },
      ],
    },
  },
};
