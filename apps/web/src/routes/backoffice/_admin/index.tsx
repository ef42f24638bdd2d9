import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../../../features/backoffice/dashboard-page';

/** spec 02 §2: /backoffice, the dashboard. */
export const Route = createFileRoute('/backoffice/_admin/')({ component: DashboardPage });
