import { createFileRoute } from '@tanstack/react-router';
import { ApiKeysPage } from '../../../features/partner/management-page';

/** spec 01 §2's /partner/api-keys: the API keys part of the management page, on a page of its own (issue 25 item 13). */
export const Route = createFileRoute('/partner/_portal/api-keys')({ component: ApiKeysPage });
