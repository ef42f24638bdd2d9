import { apiFetch } from './client';
import type { MessageResponse } from './users';

/** Double opt-in newsletter (the confirmation and unsubscribe links in the mails lead to /newsletter/*). */
export const newsletterApi = {
  subscribe: (email: string) =>
    apiFetch<MessageResponse>('/newsletter/subscribe', { method: 'POST', body: { email }, auth: 'none' }),
  confirm: (token: string) =>
    apiFetch<MessageResponse>('/newsletter/confirm', { method: 'POST', body: { token }, auth: 'none' }),
  unsubscribe: (token: string) =>
    apiFetch<MessageResponse>('/newsletter/unsubscribe', { method: 'POST', body: { token }, auth: 'none' }),
};
