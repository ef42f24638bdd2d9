import { createFileRoute, redirect } from '@tanstack/react-router';

/**
 * The short link e-mails carry (`/confirm-email/<token>`): a path rather than `?token=`, so that quoted-printable
 * encoding (which turns "=" into "=3D") and line wrapping cannot break it when it is copied from a raw message.
 */
export const Route = createFileRoute('/confirm-email/$token')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/verify-email', search: { token: params.token }, replace: true });
  },
});
