import { createFileRoute } from '@tanstack/react-router';
import { PlansPage } from '../../../features/billing/plans-page';

export const Route = createFileRoute('/partner/_portal/plans')({ component: PlansPage });
