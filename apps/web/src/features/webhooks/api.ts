import type {
  CreateWebhookBody,
  UpdateWebhookBody,
  WebhookDeliveryView,
  WebhookView,
} from '@attestly/contracts';
import { apiFetch } from '../../api/client';
import { getQueryOptions } from '../../api/get-query';

export const webhookKeys = {
  all: ['partner', 'webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: string) => [...webhookKeys.all, 'deliveries', id] as const,
};

export const webhooksQueryOptions = () =>
  getQueryOptions<{ webhooks: WebhookView[]; total_count: number }>(
    webhookKeys.list(),
    '/partners/webhooks',
    'partner',
  );

export const deliveriesQueryOptions = (id: string) =>
  getQueryOptions<{ deliveries: WebhookDeliveryView[]; total_count: number }>(
    webhookKeys.deliveries(id),
    `/partners/webhooks/${id}/deliveries?limit=20`,
    'partner',
  );

export const createWebhook = (body: CreateWebhookBody) =>
  apiFetch<WebhookView>('/partners/webhooks', { method: 'POST', auth: 'partner', body });
export const updateWebhook = (id: string, body: UpdateWebhookBody) =>
  apiFetch<WebhookView>(`/partners/webhooks/${id}`, { method: 'PUT', auth: 'partner', body });
export const deleteWebhook = (id: string) =>
  apiFetch<void>(`/partners/webhooks/${id}`, { method: 'DELETE', auth: 'partner' });
export const testWebhook = (id: string) =>
  apiFetch<{ success: boolean; status_code: number | null; error: string | null; latency_ms: number }>(
    `/partners/webhooks/${id}/test`,
    { method: 'POST', auth: 'partner' },
  );
export const redeliver = (id: string, deliveryId: string) =>
  apiFetch<WebhookDeliveryView>(`/partners/webhooks/${id}/deliveries/${deliveryId}/redeliver`, {
    method: 'POST',
    auth: 'partner',
  });
