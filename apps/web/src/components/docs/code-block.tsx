import { toast } from '../../lib/toast';

/** A code sample with a copy button. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div className="overflow-hidden rounded-xl border border-slate-800 bg-slate-900">
      <div className="flex items-center justify-between border-b border-slate-700 px-4 py-2">
        <span className="text-xs font-medium text-slate-300">{label}</span>
        <button
          type="button"
          className="rounded px-2 py-1 text-xs font-semibold text-slate-200 hover:bg-slate-700"
          onClick={() =>
            void navigator.clipboard.writeText(code).then(
              () => toast.success('Code snippet copied to clipboard'),
              () => toast.error('Copy failed: select the code and copy it by hand'),
            )
          }
          aria-label={`Copy ${label}`}
        >
          Copy
        </button>
      </div>
      <pre className="overflow-x-auto p-4 text-sm leading-6 text-slate-100" tabIndex={0}>
        <code>{code}</code>
      </pre>
    </div>
  );
}

/** The appliance's own address, so samples show the URLs a reader can actually use. */
export const applianceUrl = () =>
  typeof window === 'undefined' ? 'https://verify.example.com' : window.location.origin;
