import { queryOptions } from '@tanstack/react-query';
import type {
  LoginBody,
  LoginResponse,
  ProfileBody,
  RegisterBody,
  SessionSummary,
  UserProfile,
} from '@attestly/contracts';
import { apiFetch } from './client';
import { getQueryOptions } from './get-query';

export interface MessageResponse {
  message: string;
}

export const userKeys = {
  all: ['users'] as const,
  profile: () => [...userKeys.all, 'profile'] as const,
  sessions: () => [...userKeys.all, 'sessions'] as const,
};

export const profileQueryOptions = () =>
  queryOptions({
    ...getQueryOptions<UserProfile>(userKeys.profile(), '/users/profile', 'user'),
    staleTime: 60_000,
  });

/** The subdivisions the location check knows for a country (from the on-box GeoLite2 data), sorted. */
export const subdivisionsQueryOptions = (country: string) =>
  queryOptions({
    queryKey: [...userKeys.all, 'subdivisions', country] as const,
    queryFn: ({ signal }) =>
      apiFetch<{ country: string; subdivisions: string[] }>(
        `/locations/countries/${encodeURIComponent(country)}/subdivisions`,
        { auth: 'user', signal },
      ).then((answer) => answer.subdivisions),
    enabled: country !== '',
    staleTime: Infinity,
  });

export const sessionsQueryOptions = () =>
  getQueryOptions<{ sessions: SessionSummary[]; total_count: number }>(
    userKeys.sessions(),
    '/users/sessions',
    'user',
  );

/** spec 01 §7 "User": every call the user screens make. */
export const usersApi = {
  login: (body: LoginBody) => apiFetch<LoginResponse>('/users/login', { method: 'POST', body, auth: 'none' }),
  register: (body: RegisterBody) =>
    apiFetch<MessageResponse>('/users/register', { method: 'POST', body, auth: 'none' }),
  refresh: () => apiFetch<LoginResponse>('/users/refresh-token', { method: 'POST', auth: 'user' }),
  logout: () => apiFetch<void>('/users/logout', { method: 'POST', auth: 'user' }),
  updateProfile: (body: ProfileBody) =>
    apiFetch<UserProfile & { pending_email?: string }>('/users/profile', {
      method: 'PUT',
      body,
      auth: 'user',
    }),
  uploadPhoto: (photo: File) => {
    const form = new FormData();
    form.append('photo', photo);
    return apiFetch<UserProfile>('/users/profile/photo', { method: 'POST', body: form, auth: 'user' });
  },
  changePassword: (body: { current_password: string; new_password: string }) =>
    apiFetch<MessageResponse>('/users/change-password', { method: 'POST', body, auth: 'user' }),
  deleteAccount: (password: string) =>
    apiFetch<void>('/users/account', { method: 'DELETE', body: { password }, auth: 'user' }),
  sendEmailVerification: () =>
    apiFetch<MessageResponse>('/users/send-email-verification', { method: 'POST', auth: 'user' }),
  verifyEmail: (token: string) =>
    apiFetch<MessageResponse>('/users/verify-email', { method: 'POST', body: { token }, auth: 'none' }),
  sendPhoneVerification: (phone?: string) =>
    apiFetch<MessageResponse & { delivery?: 'sms' | 'log' }>('/users/send-phone-verification', {
      method: 'POST',
      body: phone ? { phone } : {},
      auth: 'user',
    }),
  verifyPhone: (code: string) =>
    apiFetch<UserProfile>('/users/verify-phone', { method: 'POST', body: { code }, auth: 'user' }),
  forgotPassword: (email: string) =>
    apiFetch<MessageResponse>('/users/forgot-password', { method: 'POST', body: { email }, auth: 'none' }),
  resetPassword: (body: { token: string; new_password: string }) =>
    apiFetch<MessageResponse>('/users/reset-password', { method: 'POST', body, auth: 'none' }),
  /** Everything held about the signed-in user (GDPR access and portability). */
  exportData: () => apiFetch<{ format: string; exported_at: string }>('/users/export', { auth: 'user' }),
  revokeSession: (id: string) =>
    apiFetch<void>(`/users/sessions/${encodeURIComponent(id)}`, { method: 'DELETE', auth: 'user' }),
};
