import { queryOptions } from '@tanstack/react-query';
import type {
  ApiKeyCreated,
  ApiKeyEnvironment,
  ApiKeyView,
  CreateSiteBody,
  IntegrationTestResult,
  PartnerAuditEntry,
  PartnerLoginBody,
  PartnerProfile,
  PartnerProfileBody,
  PartnerRegisterBody,
  PartnerStats,
  SiteView,
  UpdateSiteBody,
} from '@attestly/contracts';
import { apiFetch } from './client';

export interface PartnerLoginResponse {
  partner: PartnerProfile;
  access_token: string;
  token_type: 'Bearer';
  expires_at: string;
}

export interface PartnerAuditFilters {
  skip?: number;
  limit?: number;
  search?: string;
  event?: string;
  severity?: string;
  start?: string;
  end?: string;
}

export const partnerKeys = {
  all: ['partner'] as const,
  profile: () => [...partnerKeys.all, 'profile'] as const,
  sites: () => [...partnerKeys.all, 'sites'] as const,
  apiKeys: () => [...partnerKeys.all, 'api-keys'] as const,
  stats: () => [...partnerKeys.all, 'stats'] as const,
  audit: (filters: PartnerAuditFilters) => [...partnerKeys.all, 'audit', filters] as const,
};

const get = <T>(path: string, signal?: AbortSignal) => apiFetch<T>(path, { auth: 'partner', signal });

export const partnerProfileQueryOptions = () =>
  queryOptions({
    queryKey: partnerKeys.profile(),
    queryFn: ({ signal }) => get<PartnerProfile>('/partners/profile', signal),
    staleTime: 60_000,
  });

export const partnerSitesQueryOptions = () =>
  queryOptions({
    queryKey: partnerKeys.sites(),
    queryFn: ({ signal }) =>
      get<{ sites: SiteView[]; total_count: number }>('/partners/sites?limit=500', signal),
  });

export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: partnerKeys.apiKeys(),
    queryFn: ({ signal }) =>
      get<{ api_keys: ApiKeyView[]; total_count: number }>('/partners/api-keys', signal),
  });

export const partnerStatsQueryOptions = () =>
  queryOptions({
    queryKey: partnerKeys.stats(),
    queryFn: ({ signal }) => get<PartnerStats>('/partners/stats', signal),
  });

export const partnerAuditQueryOptions = (filters: PartnerAuditFilters) =>
  queryOptions({
    queryKey: partnerKeys.audit(filters),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries({ skip: 0, limit: 100, ...filters })) {
        if (value !== undefined && value !== '') query.set(key, String(value));
      }
      return get<{ audit_logs: PartnerAuditEntry[]; total_count: number }>(
        `/partners/audit-logs?${query.toString()}`,
        signal,
      );
    },
  });

const site = (id: string) => `/partners/sites/${encodeURIComponent(id)}`;

/** spec 01 §7 "Partner": every call the partner portal makes. */
export const partnerApi = {
  login: (body: PartnerLoginBody) =>
    apiFetch<PartnerLoginResponse>('/partners/login', { method: 'POST', body, auth: 'none' }),
  register: (body: PartnerRegisterBody) =>
    apiFetch<{ message: string }>('/partners/register', { method: 'POST', body, auth: 'none' }),
  logout: () => apiFetch<void>('/partners/logout', { method: 'POST', auth: 'partner' }),
  verifyEmail: (token: string) =>
    apiFetch<{ message: string }>('/partners/verify-email', {
      method: 'POST',
      body: { token },
      auth: 'none',
    }),
  resendVerification: () =>
    apiFetch<{ message: string }>('/partners/send-email-verification', { method: 'POST', auth: 'partner' }),
  forgotPassword: (email: string) =>
    apiFetch<{ message: string }>('/partners/forgot-password', {
      method: 'POST',
      body: { email },
      auth: 'none',
    }),
  resetPassword: (token: string, password: string) =>
    apiFetch<{ message: string }>('/partners/reset-password', {
      method: 'POST',
      body: { token, new_password: password },
      auth: 'none',
    }),
  updateProfile: (body: PartnerProfileBody) =>
    apiFetch<PartnerProfile>('/partners/profile', { method: 'PUT', body, auth: 'partner' }),
  createSite: (body: CreateSiteBody) =>
    apiFetch<SiteView>('/partners/sites', { method: 'POST', body, auth: 'partner' }),
  updateSite: (id: string, body: UpdateSiteBody) =>
    apiFetch<SiteView>(site(id), { method: 'PUT', body, auth: 'partner' }),
  deleteSite: (id: string) => apiFetch<void>(site(id), { method: 'DELETE', auth: 'partner' }),
  rotateSecret: (id: string) =>
    apiFetch<SiteView>(`${site(id)}/client-secret`, { method: 'POST', auth: 'partner' }),
  uploadIcon: (id: string, icon: File) => {
    const form = new FormData();
    form.append('icon', icon);
    return apiFetch<SiteView>(`${site(id)}/icon`, { method: 'POST', body: form, auth: 'partner' });
  },
  testIntegration: (id: string, redirectUri?: string) =>
    apiFetch<IntegrationTestResult>(`${site(id)}/integration-test`, {
      method: 'POST',
      body: redirectUri ? { redirect_uri: redirectUri } : {},
      auth: 'partner',
    }),
  createApiKey: (environment: ApiKeyEnvironment) =>
    apiFetch<ApiKeyCreated>('/partners/api-keys', { method: 'POST', body: { environment }, auth: 'partner' }),
  regenerateApiKey: (id: string) =>
    apiFetch<ApiKeyCreated>(`/partners/api-keys/${encodeURIComponent(id)}/regenerate`, {
      method: 'POST',
      auth: 'partner',
    }),
  deleteApiKey: (id: string) =>
    apiFetch<void>(`/partners/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE', auth: 'partner' }),
};
