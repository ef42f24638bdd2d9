import { type AuditSeverity } from './constants';

/** Back office: figures, health and alerts. */

/** spec 02 §3 "Admin system stats"; the two redacted fields are the 24-hour ones (DESIGN.md §8). */
export interface AdminSystemStats {
  total_users: number;
  verified_users: number;
  active_users: number;
  registrations_24h: number;
  total_partners: number;
  active_partners: number;
  total_tokens: number;
  total_verifications: number;
  verifications_24h: number;
  /** Approved ÷ (approved + rejected + failed) over 30 days, 0…1; null with no finished verification. */
  success_rate: number | null;
  pending_reviews: number;
  generated_at: string;
}

/**
 * `off`: a supported mode in which the service is deliberately not used (billing without Stripe); it needs no fix and
 * counts as working. `not_configured`: something this installation should have and does not have yet.
 */
export type HealthStatus = 'healthy' | 'degraded' | 'unhealthy' | 'not_configured' | 'off';

export interface AdminServiceHealth {
  status: HealthStatus;
  error: string | null;
  /** How the service runs, when that is worth saying but is no problem (mail to the outbox, billing off). */
  note?: string;
  details?: Record<string, unknown>;
}

/** spec 02 §3 "Health". */
export interface AdminSystemHealth {
  overall_status: 'healthy' | 'degraded' | 'unhealthy';
  database: { status: HealthStatus; error: string | null; latency_ms: number | null; dialect: string };
  services: Record<string, AdminServiceHealth>;
  metrics: {
    recent_api_calls: number;
    active_users_last_hour: number;
    healthy_services: number;
    total_services: number;
  };
  checked_at: string;
}

export interface AdminAlert {
  id: string;
  type: string;
  message: string;
  severity: AuditSeverity;
  created_at: string;
}

export interface AdminAlertList {
  alerts: AdminAlert[];
}
