import { createFileRoute } from '@tanstack/react-router';
import { PartnerForgotPasswordPage } from '../../features/partner/password-pages';

export const Route = createFileRoute('/partner/forgot-password')({ component: PartnerForgotPasswordPage });
