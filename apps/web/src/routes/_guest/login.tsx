import { createFileRoute } from '@tanstack/react-router';
import { LoginForm } from '../../components/auth/login-form';

export const Route = createFileRoute('/_guest/login')({ component: LoginForm });
