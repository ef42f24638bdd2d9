import { toast } from '../../lib/toast';

/**
 * A record id shown whole (never sliced: a reviewer pastes it into a search or a ticket) with a Copy button
 * (issue 25 item 11). The id breaks anywhere so a column stays narrow.
 */
export function CopyableId({ id, label }: { id: string; label: string }) {
  return (
    <span className="inline-flex max-w-full items-start gap-1">
      <code className="font-mono text-xs break-all text-slate-800">{id}</code>
      <button
        type="button"
        className="shrink-0 rounded px-1 text-xs font-semibold text-indigo-700 hover:bg-indigo-50 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        aria-label={`Copy ${label} ${id}`}
        onClick={(event) => {
          // Inside a clickable row: copying must not also open the row.
          event.stopPropagation();
          void navigator.clipboard
            .writeText(id)
            .then(() => toast.success('Copied'))
            .catch(() => toast.error('Copy failed: select the text and copy it by hand'));
        }}
      >
        Copy
      </button>
    </span>
  );
}
