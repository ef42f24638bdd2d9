import { createFileRoute } from '@tanstack/react-router';
import { PartnerDashboardPage } from '../../../features/partner/dashboard-page';

export const Route = createFileRoute('/partner/_portal/dashboard')({ component: PartnerDashboardPage });
