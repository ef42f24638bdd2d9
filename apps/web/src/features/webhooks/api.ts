import { queryOptions } from '@tanstack/react-query';
import type {
  CreateWebhookBody,
  UpdateWebhookBody,
  WebhookDeliveryView,
  WebhookView,
} from '@attestly/contracts';
import { apiFetch } from '../../api/client';

export const webhookKeys = {
  all: ['partner', 'webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: string) => [...webhookKeys.all, 'deliveries', id] as const,
};

export const webhooksQueryOptions = () =>
  queryOptions({
    queryKey: webhookKeys.list(),
    queryFn: ({ signal }) =>
      apiFetch<{ webhooks: WebhookView[]; total_count: number }>('/partners/webhooks', {
        auth: 'partner',
        signal,
      }),
  });

export const deliveriesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(id),
    queryFn: ({ signal }) =>
      apiFetch<{ deliveries: WebhookDeliveryView[]; total_count: number }>(
        `/partners/webhooks/${id}/deliveries?limit=20`,
        { auth: 'partner', signal },
      ),
  });

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
