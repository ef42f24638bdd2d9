import { createFileRoute } from '@tanstack/react-router';
import { WebhooksSection } from '../../../features/webhooks/webhooks-section';
import { PageTitle } from '../../../features/partner/ui';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** Webhooks of the signed-in partner (register, test, delivery log, redeliver). */
export const Route = createFileRoute('/partner/_portal/webhooks')({
  component: function WebhooksPage() {
    useDocumentTitle('Webhooks');
    return (
      <div className="space-y-6">
        <PageTitle title="Webhooks" />
        <WebhooksSection />
      </div>
    );
  },
});
