import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { profileQueryOptions } from '../../api/users';
import { clearReturn, pendingReturn, rememberReturn } from '../../lib/oauth-return';
import { toast } from '../../lib/toast';
import { buttonClass } from '../ui/button';

const FACTS = ['age_verified', 'location_verified', 'identity_verified'] as const;

/**
 * On /verification opened from the consent screen ("Verify now", ?return_to=/oauth/consent?uid=…): offers the way
 * back, and goes back by itself once a verification succeeds (a fact turns verified).
 */
export function ReturnToConsent({ returnTo }: { returnTo?: string }) {
  const profile = useQuery(profileQueryOptions());
  if (returnTo) rememberReturn(returnTo);
  const target = pendingReturn();
  const before = useRef<string | null>(null);
  const facts = profile.data ? FACTS.filter((fact) => profile.data[fact]).join(',') : null;

  useEffect(() => {
    if (!target || facts === null) return;
    if (before.current === null) {
      before.current = facts;
      return;
    }
    if (facts !== before.current && facts.length > before.current.length) {
      toast.success('Verification completed successfully!');
      clearReturn();
      window.location.assign(target.path);
    }
  }, [facts, target]);

  if (!target || !target.path.startsWith('/oauth/consent')) return null;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-950"
    >
      <p>You came here from a site asking for proof. Once verified, you go back to finish there.</p>
      <a href={target.path} className={buttonClass('secondary')} onClick={() => clearReturn()}>
        Back to the consent screen
      </a>
    </div>
  );
}
