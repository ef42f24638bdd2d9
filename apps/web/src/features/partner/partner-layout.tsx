import { useMutation, useQuery } from '@tanstack/react-query';
import { Outlet } from '@tanstack/react-router';
import { errorMessage } from '../../api/client';
import { partnerApi, partnerProfileQueryOptions } from '../../api/partner';
import { AppShell } from '../../components/layout/app-shell';
import { Button } from '../../components/ui/button';
import { toast } from '../../lib/toast';

/** The partner portal's common layout (spec 01 §2): header with the partner's account, partner navigation. */
export function PartnerLayout() {
  const profile = useQuery(partnerProfileQueryOptions());
  const resend = useMutation({
    mutationFn: partnerApi.resendVerification,
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(errorMessage(error, 'Failed to send the e-mail')),
  });
  return (
    <AppShell accountLabel={profile.data?.email ?? profile.data?.company_name}>
      {profile.data?.status === 'pending_verification' ? (
        <div
          role="status"
          className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
        >
          <p>
            Please verify your e-mail address: your sites start accepting sign-ins once your account is
            active.
          </p>
          <Button variant="secondary" busy={resend.isPending} onClick={() => resend.mutate()}>
            Resend e-mail
          </Button>
        </div>
      ) : null}
      <Outlet />
    </AppShell>
  );
}
