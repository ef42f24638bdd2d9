import { createFileRoute } from '@tanstack/react-router';
import { PartnersPage } from '../../../../features/backoffice/partners-page';

/** spec 02 §2: /backoffice/partners. */
export const Route = createFileRoute('/backoffice/_admin/partners/')({ component: PartnersPage });
