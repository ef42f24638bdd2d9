import { createFileRoute } from '@tanstack/react-router';
import { PartnerAuditLogsPage } from '../../../features/partner/audit-logs-page';

export const Route = createFileRoute('/partner/_portal/audit-logs')({ component: PartnerAuditLogsPage });
