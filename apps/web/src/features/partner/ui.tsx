import { useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { toast } from '../../lib/toast';

/** A white card with a heading, as on the user pages. */
export function Panel({
  title,
  actions,
  children,
  id,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  id?: string;
}) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-heading`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

export function PageTitle({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      {children ? <div className="flex flex-wrap gap-2">{children}</div> : null}
    </div>
  );
}

const BADGE: Record<string, string> = {
  active: 'bg-emerald-50 text-emerald-800',
  success: 'bg-emerald-50 text-emerald-800',
  pending_verification: 'bg-amber-50 text-amber-900',
  pending: 'bg-amber-50 text-amber-900',
  warning: 'bg-amber-50 text-amber-900',
  suspended: 'bg-red-50 text-red-800',
  failed: 'bg-red-50 text-red-800',
  error: 'bg-red-50 text-red-800',
  inactive: 'bg-slate-100 text-slate-800',
  sandbox: 'bg-sky-50 text-sky-900',
  live: 'bg-indigo-50 text-indigo-900',
  info: 'bg-slate-100 text-slate-800',
};

const LABEL: Record<string, string> = {
  active: 'Active',
  pending_verification: 'Pending verification',
  suspended: 'Suspended',
  inactive: 'Inactive',
  sandbox: 'Sandbox',
  live: 'Live',
};

export function Badge({ value, label }: { value: string; label?: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${BADGE[value] ?? BADGE.info}`}
    >
      {label ?? LABEL[value] ?? value}
    </span>
  );
}

export async function copyText(text: string, message = 'Copied to clipboard'): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(message);
  } catch {
    toast.error('Copy failed: select the text and copy it by hand');
  }
}

/** A code sample with a copy button ('Code snippet copied to clipboard', spec 01 §8). */
export function CodeSample({ code, label }: { code: string; label: string }) {
  return (
    <div className="relative">
      <pre
        aria-label={label}
        className="overflow-x-auto rounded-lg bg-slate-900 p-4 pr-20 text-xs leading-relaxed text-slate-100"
      >
        <code>{code}</code>
      </pre>
      <Button
        variant="secondary"
        className="absolute top-2 right-2 px-2 py-1 text-xs"
        onClick={() => void copyText(code, 'Code snippet copied to clipboard')}
      >
        Copy
      </Button>
    </div>
  );
}

/** A secret shown once (API key, client secret), with copy and the warning that it will not be shown again. */
export function SecretOnce({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-slate-800">{label}</p>
      <div className="flex items-center gap-2">
        <code
          data-testid="secret-once"
          className="block flex-1 overflow-x-auto rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs break-all text-slate-900"
        >
          {value}
        </code>
        <Button
          variant="secondary"
          onClick={() => {
            void copyText(value);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p className="text-xs text-amber-900">
        Store it now: it is shown only this once. Attestly keeps only a hash of it.
      </p>
    </div>
  );
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  return new Date(value).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}
