import { createFileRoute } from '@tanstack/react-router';
import { ManagementPage } from '../../../features/partner/management-page';

/** spec 01 §2: /partner/sites shows the management page. */
export const Route = createFileRoute('/partner/_portal/sites')({ component: () => <ManagementPage /> });
