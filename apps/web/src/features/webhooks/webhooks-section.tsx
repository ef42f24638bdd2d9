import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { WEBHOOK_EVENTS, type WebhookEvent, type WebhookView } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { ErrorState, LoadingState } from '../../components/ui/query-state';
import { toast } from '../../lib/toast';
import { Badge, copyText, Panel } from '../partner/ui';
import {
  createWebhook,
  deleteWebhook,
  deliveriesQueryOptions,
  redeliver,
  testWebhook,
  updateWebhook,
  webhookKeys,
  webhooksQueryOptions,
} from './api';

/** The signing secret, shown once after creation or rotation. */
function SecretNotice({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div role="status" className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
      <p className="font-semibold">Signing secret — copy it now, it is not shown again.</p>
      <code className="mt-2 block break-all rounded bg-white p-2 font-mono text-xs">{secret}</code>
      <div className="mt-3 flex gap-2">
        <Button variant="secondary" onClick={() => void copyText(secret)}>
          Copy
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

function AddWebhookForm({ onCreated }: { onCreated: (webhook: WebhookView) => void }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([...WEBHOOK_EVENTS]);
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => createWebhook({ url, events }),
    onSuccess: (webhook) => {
      setUrl('');
      setError(null);
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      onCreated(webhook);
    },
    onError: (failure) => setError(errorMessage(failure, 'Failed to add webhook')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!url.trim()) return setError('Webhook URL is required');
    if (events.length === 0) return setError('Choose at least one event');
    create.mutate();
  };
  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Add webhook" noValidate>
      <TextField
        label="Endpoint URL"
        type="url"
        placeholder="https://shop.example.com/webhooks/attestly"
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        error={error ?? undefined}
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Events</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {WEBHOOK_EVENTS.map((name) => (
            <label key={name} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                checked={events.includes(name)}
                onChange={(event) =>
                  setEvents((list) =>
                    event.target.checked ? [...list, name] : list.filter((item) => item !== name),
                  )
                }
              />
              <code>{name}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <Button type="submit" busy={create.isPending}>
        Add webhook
      </Button>
    </form>
  );
}

function DeliveryLog({ webhook }: { webhook: WebhookView }) {
  const queryClient = useQueryClient();
  const log = useQuery(deliveriesQueryOptions(webhook.id));
  const again = useMutation({
    mutationFn: (deliveryId: string) => redeliver(webhook.id, deliveryId),
    onSuccess: () => {
      toast.success('Delivery queued again');
      void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhook.id) });
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to redeliver')),
  });
  if (log.isPending) return <LoadingState label="Loading deliveries…" />;
  if (log.isError) return <ErrorState error={log.error} fallback="Failed to load deliveries" />;
  if (log.data.deliveries.length === 0) return <p className="text-sm text-slate-700">No deliveries yet.</p>;
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">Recent deliveries</caption>
      <thead className="text-slate-600">
        <tr>
          <th className="py-1 pr-2 font-medium">Event</th>
          <th className="py-1 pr-2 font-medium">Status</th>
          <th className="py-1 pr-2 font-medium">Attempts</th>
          <th className="py-1 pr-2 font-medium">Last answer</th>
          <th className="py-1 pr-2 font-medium">Created</th>
          <th className="py-1 font-medium">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {log.data.deliveries.map((delivery) => {
          const last = delivery.attempt_log.at(-1);
          return (
            <tr key={delivery.id} className="border-t border-slate-100">
              <td className="py-1 pr-2 font-mono text-xs">{delivery.event}</td>
              <td className="py-1 pr-2">
                <Badge
                  value={delivery.status === 'succeeded' ? 'success' : delivery.status}
                  label={delivery.status}
                />
              </td>
              <td className="py-1 pr-2">{delivery.attempts}</td>
              <td className="py-1 pr-2" title={last?.response_excerpt ?? last?.error ?? ''}>
                {last ? `${last.status_code ?? last.error ?? '—'} · ${last.latency_ms} ms` : '—'}
              </td>
              <td className="py-1 pr-2">{new Date(delivery.created_at).toLocaleString('en-US')}</td>
              <td className="py-1 text-right">
                {delivery.status !== 'pending' && webhook.active ? (
                  <Button variant="ghost" onClick={() => again.mutate(delivery.id)} busy={again.isPending}>
                    Redeliver
                  </Button>
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function WebhookRow({ webhook, onSecret }: { webhook: WebhookView; onSecret: (secret: string) => void }) {
  const queryClient = useQueryClient();
  const [showLog, setShowLog] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  const test = useMutation({
    mutationFn: () => testWebhook(webhook.id),
    onSuccess: (result) => {
      if (result.success)
        toast.success(`Test delivered (HTTP ${result.status_code}, ${result.latency_ms} ms)`);
      else toast.error(`Test failed: ${result.status_code ? `HTTP ${result.status_code}` : result.error}`);
      refresh();
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to send the test event')),
  });
  const update = useMutation({
    mutationFn: (body: { active?: boolean; rotate_secret?: boolean }) => updateWebhook(webhook.id, body),
    onSuccess: (updated) => {
      if (updated.secret) onSecret(updated.secret);
      refresh();
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to update webhook')),
  });
  const remove = useMutation({
    mutationFn: () => deleteWebhook(webhook.id),
    onSuccess: () => {
      toast.success('Webhook deleted');
      refresh();
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to delete webhook')),
  });
  return (
    <li className="space-y-3 rounded-lg border border-slate-200 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all text-slate-900">{webhook.url}</p>
          <p className="text-xs text-slate-600">
            {webhook.events.join(', ')} · secret …{webhook.secret_hint}
          </p>
          {webhook.disabled_reason ? <p className="text-xs text-red-800">{webhook.disabled_reason}</p> : null}
        </div>
        <Badge value={webhook.active ? 'active' : 'inactive'} />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" busy={test.isPending} onClick={() => test.mutate()}>
          Send test event
        </Button>
        <Button variant="secondary" onClick={() => setShowLog((shown) => !shown)} aria-expanded={showLog}>
          {showLog ? 'Hide deliveries' : 'Deliveries'}
        </Button>
        <Button
          variant="ghost"
          busy={update.isPending}
          onClick={() => update.mutate({ active: !webhook.active })}
        >
          {webhook.active ? 'Deactivate' : 'Activate'}
        </Button>
        <Button variant="ghost" onClick={() => update.mutate({ rotate_secret: true })}>
          Rotate secret
        </Button>
        <Button
          variant="danger"
          busy={remove.isPending}
          onClick={() => {
            if (window.confirm('Delete this webhook? Events will no longer be sent to it.')) remove.mutate();
          }}
        >
          Delete
        </Button>
      </div>
      {showLog ? <DeliveryLog webhook={webhook} /> : null}
    </li>
  );
}

/**
 * Webhooks in partner management (DESIGN.md §6): register endpoints, send a signed test event, read the delivery
 * log and redeliver. Deliveries carry `Attestly-Signature: t=…,v1=…` (the SDK's verifyWebhook checks it).
 */
export function WebhooksSection() {
  const list = useQuery(webhooksQueryOptions());
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Panel title="Webhooks" id="webhooks">
      <div className="space-y-5">
        {secret ? <SecretNotice secret={secret} onDone={() => setSecret(null)} /> : null}
        {list.isPending ? <LoadingState label="Loading webhooks…" /> : null}
        {list.isError ? <ErrorState error={list.error} fallback="Failed to load webhooks" /> : null}
        {list.data ? (
          list.data.webhooks.length > 0 ? (
            <ul className="space-y-3">
              {list.data.webhooks.map((webhook) => (
                <WebhookRow key={webhook.id} webhook={webhook} onSecret={setSecret} />
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-700">No webhooks yet. Add an endpoint to receive events.</p>
          )
        ) : null}
        <AddWebhookForm onCreated={(webhook) => setSecret(webhook.secret ?? null)} />
      </div>
    </Panel>
  );
}
