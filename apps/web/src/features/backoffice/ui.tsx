import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button';

/** Small building blocks shared by the back-office screens. */

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      {children ? <div className="flex flex-wrap items-center gap-2">{children}</div> : null}
    </div>
  );
}

export function Panel({
  title,
  children,
  actions,
}: {
  title?: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      {title || actions ? (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          {title ? <h2 className="text-lg font-semibold text-slate-900">{title}</h2> : <span />}
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}

export function StatCard({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-slate-900">{value}</dd>
    </div>
  );
}

export type Tone = 'green' | 'red' | 'amber' | 'slate' | 'indigo' | 'blue' | 'purple';

const TONES: Record<Tone, string> = {
  green: 'bg-emerald-100 text-emerald-900',
  red: 'bg-red-100 text-red-900',
  amber: 'bg-amber-100 text-amber-900',
  slate: 'bg-slate-100 text-slate-800',
  indigo: 'bg-indigo-100 text-indigo-900',
  blue: 'bg-sky-100 text-sky-900',
  purple: 'bg-purple-100 text-purple-900',
};

export function Badge({ tone = 'slate', children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

const STATUS_TONES: Record<string, Tone> = {
  active: 'green',
  approved: 'green',
  verified: 'green',
  healthy: 'green',
  pending: 'amber',
  pending_verification: 'amber',
  degraded: 'amber',
  suspended: 'red',
  rejected: 'red',
  failed: 'red',
  unhealthy: 'red',
  expired: 'slate',
  inactive: 'slate',
  not_configured: 'slate',
  off: 'slate',
  unknown: 'slate',
};

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? 'slate'}>{status.replace(/_/g, ' ')}</Badge>;
}

const PLAN_TONES: Record<string, Tone> = {
  free: 'slate',
  starter: 'blue',
  growth: 'indigo',
  scale: 'purple',
  professional: 'amber',
  enterprise: 'green',
};

export function PlanBadge({ plan }: { plan: string }) {
  return <Badge tone={PLAN_TONES[plan] ?? 'slate'}>{plan}</Badge>;
}

/** spec 02 §9: Previous and Next; Next is disabled when skip plus limit reaches the total. */
export function Pager({
  skip,
  limit,
  total,
  onChange,
}: {
  skip: number;
  limit: number;
  total: number;
  onChange(skip: number): void;
}) {
  const from = total === 0 ? 0 : skip + 1;
  const to = Math.min(skip + limit, total);
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700">
      <p>
        Showing {from} to {to} of {total} results
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={skip === 0} onClick={() => onChange(Math.max(0, skip - limit))}>
          Previous
        </Button>
        <Button variant="secondary" disabled={skip + limit >= total} onClick={() => onChange(skip + limit)}>
          Next
        </Button>
      </div>
    </div>
  );
}

/** A table that scrolls sideways inside its panel on narrow screens (360 px) instead of widening the page. */
export function TableFrame({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="-mx-4 overflow-x-auto sm:mx-0" role="region" aria-label={label} tabIndex={0}>
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">{children}</table>
    </div>
  );
}

export const th = 'px-3 py-2 text-xs font-semibold tracking-wide whitespace-nowrap text-slate-700 uppercase';
export const td = 'px-3 py-2 align-top text-slate-800';

/** Label/value pairs in details modals and cards. */
export function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-2">
      {items.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</dt>
          <dd className="break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
