import { createFileRoute } from '@tanstack/react-router';
import { ManagementPage } from '../../../features/partner/management-page';

/** spec 01 §2: /partner/api-keys shows the management page, with the API key modal open. */
export const Route = createFileRoute('/partner/_portal/api-keys')({
  component: () => <ManagementPage openApiKeys />,
});
