import { useEffect, useState } from 'react';
import type { AdminVerificationMedia } from '@attestly/contracts';
import { adminErrorMessage, fetchVerificationMedia } from '../../api/admin';

import { Button } from '../../components/ui/button';
import { ErrorState, LoadingState } from '../../components/ui/query-state';

/**
 * Shows one kept upload (photo, video or document) only when the reviewer asks: each view is decrypted on the
 * server and audited, so nothing loads by itself. The bytes live in an object URL revoked on close.
 */
export function MediaViewer({ media, index }: { media: AdminVerificationMedia; index: number }) {
  const [state, setState] = useState<
    | { kind: 'idle' }
    | { kind: 'loading' }
    | { kind: 'shown'; url: string }
    | { kind: 'failed'; error: unknown }
  >({ kind: 'idle' });

  useEffect(
    () => () => {
      if (state.kind === 'shown') URL.revokeObjectURL(state.url);
    },
    [state],
  );

  const label = `Submitted ${media.content_type.startsWith('video/') ? 'video' : media.content_type === 'application/pdf' ? 'document (PDF)' : 'image'} ${index + 1}`;
  const load = async () => {
    setState({ kind: 'loading' });
    try {
      const blob = await fetchVerificationMedia(media.url);
      setState({ kind: 'shown', url: URL.createObjectURL(blob) });
    } catch (error) {
      setState({ kind: 'failed', error });
    }
  };

  return (
    <div className="rounded-lg border border-slate-200 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="text-slate-800">
          {label} · {media.content_type} · {(media.byte_length / 1024).toFixed(0)} KB
        </span>
        {state.kind === 'shown' ? (
          <Button variant="secondary" onClick={() => setState({ kind: 'idle' })}>
            Hide media
          </Button>
        ) : (
          <Button variant="secondary" busy={state.kind === 'loading'} onClick={() => void load()}>
            View media
          </Button>
        )}
      </div>
      <p className="mt-1 text-xs text-slate-700">
        Kept encrypted until {new Date(media.purge_after).toLocaleString()}. Each view is recorded in the
        audit log.
      </p>
      {state.kind === 'loading' ? <LoadingState label="Decrypting media…" /> : null}
      {state.kind === 'failed' ? (
        <div className="mt-2">
          <ErrorState
            error={state.error}
            fallback={adminErrorMessage(state.error, 'Failed to load the media')}
          />
        </div>
      ) : null}
      {state.kind === 'shown' ? (
        <div className="mt-3">
          {media.content_type.startsWith('image/') ? (
            <img src={state.url} alt={label} className="max-h-[60vh] w-full rounded object-contain" />
          ) : media.content_type.startsWith('video/') ? (
            <video src={state.url} controls aria-label={label} className="max-h-[60vh] w-full rounded">
              <track kind="captions" />
            </video>
          ) : (
            <iframe
              src={state.url}
              title={label}
              className="h-[60vh] w-full rounded border border-slate-200"
            />
          )}
        </div>
      ) : null}
    </div>
  );
}
