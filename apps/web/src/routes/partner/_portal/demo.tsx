import { createFileRoute } from '@tanstack/react-router';
import { DemoPage } from '../../../features/partner/demo-page';

export const Route = createFileRoute('/partner/_portal/demo')({ component: DemoPage });
