import type { ReactNode } from 'react';

/** A white card with a heading (h2) that names it, and actions beside the heading: the user and partner pages. */
export function HeadedCard({
  title,
  headingId,
  id,
  actions,
  children,
}: {
  title: string;
  /** The heading's id, which labels the section. */
  headingId: string;
  id?: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
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

/** The slug of a title, for ids ("API keys" → "api-keys"). */
export const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** Colours of a pill: green for done, amber for waiting, red for stopped, and neutral, sky and indigo. */
export const PILL_TONES = {
  green: 'bg-emerald-50 text-emerald-800',
  amber: 'bg-amber-50 text-amber-900',
  red: 'bg-red-50 text-red-800',
  slate: 'bg-slate-100 text-slate-800',
  sky: 'bg-sky-50 text-sky-900',
  indigo: 'bg-indigo-50 text-indigo-900',
} as const;

export type PillTone = keyof typeof PILL_TONES;

/** A small rounded label (status, mode). */
export function Pill({ tone, children }: { tone: PillTone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${PILL_TONES[tone]}`}
    >
      {children}
    </span>
  );
}
