import { createFileRoute } from '@tanstack/react-router';
import { SitesPage } from '../../../features/partner/management-page';

/** spec 01 §2's /partner/sites: the sites part of the management page, a sidebar entry of its own (issue 25 item 13). */
export const Route = createFileRoute('/partner/_portal/sites')({ component: SitesPage });
