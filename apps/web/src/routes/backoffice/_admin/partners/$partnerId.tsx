import { createFileRoute } from '@tanstack/react-router';
import { PartnerDetailPage } from '../../../../features/backoffice/partner-detail-page';

/** spec 02 §2: /backoffice/partners/{partnerId}. */
export const Route = createFileRoute('/backoffice/_admin/partners/$partnerId')({ component: PartnerRoute });

function PartnerRoute() {
  const { partnerId } = Route.useParams();
  return <PartnerDetailPage key={partnerId} partnerId={partnerId} />;
}
