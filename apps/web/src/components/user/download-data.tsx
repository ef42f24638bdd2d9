import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../api/client';
import { usersApi } from '../../api/users';
import { useCardCheck } from '../../lib/capabilities';
import { toast } from '../../lib/toast';
import { Button } from '../ui/button';

/** Saves a JSON document in the browser's downloads without navigating away (the API needs the bearer token). */
function saveJson(document: { exported_at: string }, filename: string) {
  const blob = new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = window.document.createElement('a');
  link.href = url;
  link.download = filename;
  window.document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: some browsers start the download only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** GDPR access and portability: everything Attestly holds about the signed-in user, as one JSON file. */
export function DownloadData() {
  const cardCheck = useCardCheck() !== null;
  const download = useMutation({
    mutationFn: () => usersApi.exportData(),
    onSuccess: (document) => {
      saveJson(document, `attestly-data-${document.exported_at.slice(0, 10)}.json`);
      toast.success('Your data has been downloaded');
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to download your data')),
  });
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-slate-700">
        A JSON file with your profile, verification results (never photos, videos
        {cardCheck ? ', documents or card details' : ' or documents'}), the sites you connected, your sessions
        and the security log of your account.
      </p>
      <Button
        variant="secondary"
        className="shrink-0"
        busy={download.isPending}
        onClick={() => download.mutate()}
      >
        Download my data
      </Button>
    </div>
  );
}
