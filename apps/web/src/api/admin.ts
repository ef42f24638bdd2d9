import { keepPreviousData, queryOptions, type QueryKey } from '@tanstack/react-query';
import type {
  Admin2faSetupResponse,
  AdminAccessToken,
  AdminAlertList,
  AdminApiKeyResponse,
  AdminApproveVerificationBody,
  AdminAuditLogList,
  AdminCreatePartnerBody,
  AdminCreateSiteBody,
  AdminDeactivatePartnerBody,
  AdminDeleteUserBody,
  AdminEditUserBody,
  AdminFlagUserBody,
  AdminLockUserBody,
  AdminLoginBody,
  AdminLoginResponse,
  AdminOAuthAuthorizationList,
  AdminCreateUserBody,
  AdminCreatedUser,
  AdminPartner,
  AdminPartnerActionBody,
  AdminPartnerDetail,
  AdminPartnerList,
  AdminRejectVerificationBody,
  AdminRetriggerVerificationBody,
  AdminRevokeTokenBody,
  AdminSite,
  AdminSystemHealth,
  AdminSystemStats,
  AdminTokenList,
  AdminTokenResponse,
  AdminUnflagUserBody,
  AdminUpdatePartnerBody,
  AdminUser,
  AdminUserDetail,
  AdminUserList,
  AdminVerificationDetail,
  AdminVerificationList,
} from '@attestly/contracts';
import { ApiError, apiFetch, type ApiRequest } from './client';
import { tokens } from '../auth/token-storage';

/**
 * The back office's calls (spec 02 §7). Every `/admin` call carries the admin token; any 401 from one clears both
 * admin slots (the API client has already sent the browser to /backoffice/login, spec 02 §4).
 */
/** spec 02 §8: what an admin call says when the tab holds no admin token (signed out in another tab, expired). */
export const NO_ADMIN_TOKEN = 'No admin token found';

export async function adminFetch<T>(path: string, request: Omit<ApiRequest, 'auth'> = {}): Promise<T> {
  // Not sent at all without a token: the server would only answer 401. Status 0, like a request that never left.
  if (!tokens.has('admin')) throw new ApiError(0, 'auth.missing_token', NO_ADMIN_TOKEN);
  try {
    return await apiFetch<T>(path, { ...request, auth: 'admin' });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      tokens.clear('admin');
      tokens.clear('admin_setup');
    }
    throw error;
  }
}

/** Query strings without the blanks: an empty filter means "not filtered". */
export function queryString(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

type Params = Record<string, string | number | boolean | undefined | null>;

const id = (value: string) => encodeURIComponent(value);

export const adminKeys = {
  all: ['admin'] as const,
  partners: (params: Params) => [...adminKeys.all, 'partners', params] as const,
  partner: (id: string) => [...adminKeys.all, 'partner', id] as const,
  users: (params: Params) => [...adminKeys.all, 'users', params] as const,
  user: (id: string) => [...adminKeys.all, 'user', id] as const,
  verifications: (params: Params) => [...adminKeys.all, 'verifications', params] as const,
  verification: (id: string) => [...adminKeys.all, 'verification', id] as const,
  tokens: (params: Params) => [...adminKeys.all, 'tokens', params] as const,
  authorizations: (params: Params) => [...adminKeys.all, 'authorizations', params] as const,
  audit: (params: Params) => [...adminKeys.all, 'audit', params] as const,
  stats: () => [...adminKeys.all, 'stats'] as const,
  health: () => [...adminKeys.all, 'health'] as const,
  alerts: () => [...adminKeys.all, 'alerts'] as const,
};

/** One page of a list: its filters are part of the key, and the page on screen stays there while the next loads. */
const adminListQuery = <T>(queryKey: QueryKey, path: string, params: Params) =>
  queryOptions({
    queryKey,
    queryFn: ({ signal }) => adminFetch<T>(`${path}${queryString(params)}`, { signal }),
    placeholderData: keepPreviousData,
  });

/** One record, or one report of the system (`/admin/system/…`). */
const adminRecordQuery = <T>(queryKey: QueryKey, path: string) =>
  queryOptions({ queryKey, queryFn: ({ signal }) => adminFetch<T>(path, { signal }) });

export const adminPartnersQueryOptions = (params: Params) =>
  adminListQuery<AdminPartnerList>(adminKeys.partners(params), '/admin/partners', params);

export const adminPartnerQueryOptions = (partnerId: string) =>
  adminRecordQuery<AdminPartnerDetail>(adminKeys.partner(partnerId), `/admin/partners/${id(partnerId)}`);

export const adminUsersQueryOptions = (params: Params) =>
  adminListQuery<AdminUserList>(adminKeys.users(params), '/admin/users', params);

export const adminUserQueryOptions = (userId: string) =>
  adminRecordQuery<AdminUserDetail>(adminKeys.user(userId), `/admin/users/${id(userId)}`);

export const adminVerificationsQueryOptions = (params: Params) =>
  adminListQuery<AdminVerificationList>(adminKeys.verifications(params), '/admin/verifications', params);

export const adminVerificationQueryOptions = (verificationId: string) =>
  adminRecordQuery<AdminVerificationDetail>(
    adminKeys.verification(verificationId),
    `/admin/verifications/${id(verificationId)}`,
  );

export const adminTokensQueryOptions = (params: Params) =>
  adminListQuery<AdminTokenList>(adminKeys.tokens(params), '/admin/tokens', params);

export const adminAuthorizationsQueryOptions = (params: Params) =>
  adminListQuery<AdminOAuthAuthorizationList>(
    adminKeys.authorizations(params),
    '/admin/oauth-authorizations',
    params,
  );

/** spec 02 §9: the audit page refreshes itself every 30 seconds. */
export const AUDIT_REFRESH_MS = 30_000;

export const adminAuditQueryOptions = (params: Params) =>
  queryOptions({
    ...adminListQuery<AdminAuditLogList>(adminKeys.audit(params), '/admin/audit-logs', params),
    refetchInterval: AUDIT_REFRESH_MS,
  });

export const adminStatsQueryOptions = () =>
  adminRecordQuery<AdminSystemStats>(adminKeys.stats(), '/admin/system/stats');

/** spec 02 §8: when health fails, the dashboard shows an unknown status instead of an error. */
export const adminHealthQueryOptions = () =>
  queryOptions({
    ...adminRecordQuery<AdminSystemHealth>(adminKeys.health(), '/admin/system/health'),
    retry: false,
  });

/** spec 02 §8: when alerts fail, the dashboard shows an empty list. */
export const adminAlertsQueryOptions = () =>
  queryOptions({
    ...adminRecordQuery<AdminAlertList>(adminKeys.alerts(), '/admin/system/alerts'),
    retry: false,
  });

/** Administrator sign-in (spec 02 §7 "Admin authentication"). */
export const adminAuthApi = {
  login: (body: AdminLoginBody) =>
    apiFetch<AdminLoginResponse>('/auth/admin/login', { method: 'POST', body, auth: 'none' }),
  verify2fa: (body: { temp_token: string; code: string }) =>
    apiFetch<AdminTokenResponse>('/auth/admin/verify-2fa', { method: 'POST', body, auth: 'none' }),
  setup2fa: (body: { password: string }) =>
    apiFetch<Admin2faSetupResponse>('/auth/admin/setup-2fa', { method: 'POST', body, auth: 'admin_setup' }),
  enable2fa: (body: { totp_code: string }) =>
    apiFetch<AdminTokenResponse>('/auth/admin/enable-2fa', { method: 'POST', body, auth: 'admin_setup' }),
  logout: () => apiFetch<void>('/auth/admin/logout', { method: 'POST', auth: 'admin' }),
};

/** The back office's actions (spec 02 §7 plus the edit, lock, delete, approve and suspend the issue makes real). */
export const adminApi = {
  createPartner: (body: AdminCreatePartnerBody) =>
    adminFetch<AdminPartnerDetail>('/admin/partners', { method: 'POST', body }),
  deletePartner: (partnerId: string) =>
    adminFetch<void>(`/admin/partners/${id(partnerId)}`, { method: 'DELETE' }),
  updatePartner: (partnerId: string, body: AdminUpdatePartnerBody) =>
    adminFetch<AdminPartner>(`/admin/partners/${id(partnerId)}`, { method: 'PUT', body }),
  deactivatePartner: (partnerId: string, body: AdminDeactivatePartnerBody) =>
    adminFetch<unknown>(`/admin/partners/${id(partnerId)}/deactivate`, { method: 'POST', body }),
  approvePartner: (partnerId: string, body: AdminPartnerActionBody) =>
    adminFetch<unknown>(`/admin/partners/${id(partnerId)}/approve`, { method: 'POST', body }),
  suspendPartner: (partnerId: string, body: AdminPartnerActionBody) =>
    adminFetch<unknown>(`/admin/partners/${id(partnerId)}/suspend`, { method: 'POST', body }),
  regenerateApiKey: (partnerId: string) =>
    adminFetch<AdminApiKeyResponse>(`/admin/partners/${id(partnerId)}/regenerate-api-key`, {
      method: 'POST',
      body: {},
    }),
  createSite: (partnerId: string, body: AdminCreateSiteBody) =>
    adminFetch<AdminSite & { client_secret?: string | null }>(`/admin/partners/${id(partnerId)}/sites`, {
      method: 'POST',
      body,
    }),

  flagUser: (userId: string, body: AdminFlagUserBody) =>
    adminFetch<AdminUser>(`/admin/users/${id(userId)}/flag`, { method: 'POST', body }),
  unflagUser: (userId: string, body: AdminUnflagUserBody) =>
    adminFetch<AdminUser>(`/admin/users/${id(userId)}/unflag`, { method: 'POST', body }),
  addUser: (body: AdminCreateUserBody) =>
    adminFetch<AdminCreatedUser>('/admin/users', { method: 'POST', body }),
  editUser: (userId: string, body: AdminEditUserBody) =>
    adminFetch<AdminUser>(`/admin/users/${id(userId)}`, { method: 'PUT', body }),
  lockUser: (userId: string, body: AdminLockUserBody) =>
    adminFetch<AdminUser>(`/admin/users/${id(userId)}/lock`, { method: 'POST', body }),
  unlockUser: (userId: string) =>
    adminFetch<AdminUser>(`/admin/users/${id(userId)}/unlock`, { method: 'POST', body: {} }),
  deleteUser: (userId: string, body: AdminDeleteUserBody) =>
    adminFetch<unknown>(`/admin/users/${id(userId)}`, { method: 'DELETE', body }),

  approveVerification: (verificationId: string, body: AdminApproveVerificationBody) =>
    adminFetch<unknown>(`/admin/verifications/${id(verificationId)}/approve`, { method: 'POST', body }),
  rejectVerification: (verificationId: string, body: AdminRejectVerificationBody) =>
    adminFetch<unknown>(`/admin/verifications/${id(verificationId)}/reject`, { method: 'POST', body }),
  retriggerVerification: (verificationId: string, body: AdminRetriggerVerificationBody) =>
    adminFetch<unknown>(`/admin/verifications/${id(verificationId)}/retrigger`, { method: 'POST', body }),

  revokeToken: (tokenId: string, body: AdminRevokeTokenBody) =>
    adminFetch<AdminAccessToken>(`/admin/tokens/${id(tokenId)}/revoke`, { method: 'POST', body }),
  revokeAuthorization: (authorizationId: string, body: AdminRevokeTokenBody) =>
    adminFetch<unknown>(`/admin/oauth-authorizations/${id(authorizationId)}/revoke`, {
      method: 'POST',
      body,
    }),
};

/**
 * The kept media of a verification, fetched with the admin token (an <img src> could not carry it) and shown from
 * an object URL that the viewer revokes when it closes; nothing is written to any cache (spec 02, issue 9).
 */
export async function fetchVerificationMedia(url: string, signal?: AbortSignal): Promise<Blob> {
  const path = url.startsWith('/api/v1') ? url : `/api/v1${url.startsWith('/') ? '' : '/'}${url}`;
  const headers: Record<string, string> = {};
  const token = tokens.token('admin');
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { headers, signal, cache: 'no-store' });
  if (response.status === 401) {
    // The admin layout watches the token and goes to /backoffice/login when it disappears.
    tokens.clear('admin');
    tokens.clear('admin_setup');
    throw new ApiError(401, 'auth.invalid_token', 'Your session has ended. Please sign in again.');
  }
  if (!response.ok) throw new ApiError(response.status, 'http_error', 'Failed to load the media');
  return response.blob();
}

/**
 * The server's explanation when it sent one (the error envelope), else the screen's message of spec 02 §8 — never a
 * bare "HTTP error! status: 500".
 */
export function adminErrorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.code !== 'http_error' && error.detail ? error.detail : fallback;
}
