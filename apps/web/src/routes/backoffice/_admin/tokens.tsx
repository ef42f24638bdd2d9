import { createFileRoute } from '@tanstack/react-router';
import { TokensPage } from '../../../features/backoffice/tokens-page';

/** spec 02 §2: /backoffice/tokens, access tokens and OAuth authorizations. */
export const Route = createFileRoute('/backoffice/_admin/tokens')({ component: TokensPage });
