import { createFileRoute } from '@tanstack/react-router';
import { IntegrationPage } from '../../../features/partner/integration-page';

export const Route = createFileRoute('/partner/_portal/integration')({ component: IntegrationPage });
