import { createFileRoute } from '@tanstack/react-router';
import { UsersPage } from '../../../features/backoffice/users-page';

/** spec 02 §2: /backoffice/users. */
export const Route = createFileRoute('/backoffice/_admin/users')({ component: UsersPage });
