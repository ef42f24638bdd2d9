import { createFileRoute } from '@tanstack/react-router';
import { AuditPage } from '../../../features/backoffice/audit-page';

/** spec 02 §2: /backoffice/audit. */
export const Route = createFileRoute('/backoffice/_admin/audit')({ component: AuditPage });
