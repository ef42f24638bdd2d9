import { useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { HeadedCard, Pill, slugOf, type PillTone } from '../../components/ui/card';
import { ColumnCells, type ColumnBase } from '../../components/ui/column-cells';
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
  return (
    <HeadedCard id={id} title={title} headingId={`${id ?? slugOf(title)}-heading`} actions={actions}>
      {children}
    </HeadedCard>
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

const TONES: Record<string, PillTone> = {
  active: 'green',
  success: 'green',
  pending_verification: 'amber',
  pending: 'amber',
  warning: 'amber',
  suspended: 'red',
  failed: 'red',
  error: 'red',
  inactive: 'slate',
  sandbox: 'sky',
  live: 'indigo',
  info: 'slate',
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
  return <Pill tone={TONES[value] ?? 'slate'}>{label ?? LABEL[value] ?? value}</Pill>;
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

/** A column of a portal table; its classes are added to the cell's spacing. */
export type TableColumn<Row> = ColumnBase<Row>;

/**
 * A plain table of the portal (recent verifications, audit log): small capitals in the head, a row per item, a gap
 * after every column but the last. `className` is its scrolling frame's (it scrolls sideways on narrow screens).
 */
export function SimpleTable<Row extends { id: string }>({
  columns,
  rows,
  className = 'overflow-x-auto',
}: {
  columns: readonly TableColumn<Row>[];
  rows: readonly Row[];
  className?: string;
}) {
  const spacing = (index: number) => (index === columns.length - 1 ? 'py-2' : 'py-2 pr-4');
  return (
    <div className={className}>
      <table className="min-w-full text-left text-sm">
        <thead className="text-xs text-slate-600 uppercase">
          <tr>
            {columns.map((column, index) => (
              <th key={index} className={spacing(index)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id}>
              <ColumnCells
                columns={columns}
                row={row}
                cellClass={(column, index) =>
                  column.className ? `${spacing(index)} ${column.className}` : spacing(index)
                }
              />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
