import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { errorMessage } from '../../api/client';
import { verificationApi, type VerificationAnswer } from '../../api/verification';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { ResultPanel } from './result-panel';

/** Location from this connection's public address, compared with the country and state on the profile. */
export function LocationCheck({ onDone }: { onDone: () => void }) {
  const [result, setResult] = useState<VerificationAnswer | null>(null);
  const check = useMutation({
    mutationFn: () => verificationApi.location(),
    onSuccess: (answer) => {
      setResult(answer);
      onDone();
    },
    onError: (error) => toast.error(errorMessage(error, 'Verification failed')),
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
      {result ? (
        <ResultPanel status={result.status} title={`Location ${result.status}`} message={result.message} />
      ) : null}
    </div>
  );
}
