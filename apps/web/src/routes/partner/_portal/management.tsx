import { createFileRoute } from '@tanstack/react-router';
import { ManagementPage } from '../../../features/partner/management-page';

export const Route = createFileRoute('/partner/_portal/management')({ component: ManagementPage });
