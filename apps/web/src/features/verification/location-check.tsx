import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { ApiError, errorMessage } from '../../api/client';
import { verificationApi, type VerificationAnswer } from '../../api/verification';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { ResultPanel } from './result-panel';

/** Location from this connection's public address, compared with the country and state on the profile. */
export function LocationCheck({ onDone }: { onDone: () => void }) {
  const [result, setResult] = useState<VerificationAnswer | null>(null);
  /** The server's word that the profile has no country yet: answered on the spot, with the way to fix it. */
  const [needsCountry, setNeedsCountry] = useState(false);
  const check = useMutation({
    mutationFn: () => verificationApi.location(),
    onMutate: () => setNeedsCountry(false),
    onSuccess: (answer) => {
      setResult(answer);
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'verification.no_declared_country')
        setNeedsCountry(true);
      else toast.error(errorMessage(error, 'Verification failed'));
    },
  });
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        We look up the country and region of your internet connection in a database on this server and compare
        it with the country and state in your{' '}
        <Link to="/profile" className="font-semibold text-indigo-800 underline">
          profile
        </Link>
        . Turn off any VPN first.
      </p>
      <Button busy={check.isPending} onClick={() => check.mutate()}>
        Verify my location
      </Button>
      {needsCountry ? (
        <p role="alert" className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
          Your profile has no country yet, so there is nothing to compare your connection with.{' '}
          <Link to="/profile" hash="country" className="font-semibold text-amber-950 underline">
            Add your country to your profile
          </Link>
          , then come back and verify.
        </p>
      ) : null}
      {result ? (
        <ResultPanel status={result.status} title={`Location ${result.status}`} message={result.message} />
      ) : null}
    </div>
  );
}
