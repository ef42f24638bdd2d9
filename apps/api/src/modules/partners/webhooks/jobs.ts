import type { Deps } from '../../../core/deps';
import type { Job } from '../../../core/jobs';
import { emitExpiredTokens } from './events';
import type { WebhookService } from './service';

/**
 * Webhook jobs (DESIGN.md §2). Delivery claims its rows through the database, so every replica may run it; the
 * token.expired scan claims each grant once; pruning deletes by condition (idempotent).
 */
export function webhookJobs(services: Deps & { webhooks: WebhookService }): Job[] {
  return [
    { name: 'deliver-webhooks', everyMs: 1000, atStart: true, run: () => services.webhooks.deliverDue() },
    {
      name: 'announce-expired-tokens',
      everyMs: 60_000,
      atStart: true,
      run: () => emitExpiredTokens(services),
    },
    { name: 'prune-webhook-outbox', everyMs: 3600_000, run: () => services.webhooks.prune() },
  ];
}
