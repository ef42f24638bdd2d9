import { createFileRoute } from '@tanstack/react-router';
import { VerificationsPage } from '../../../features/backoffice/verifications-page';

/** spec 02 §2: /backoffice/verifications, the review queue. */
export const Route = createFileRoute('/backoffice/_admin/verifications')({ component: VerificationsPage });
