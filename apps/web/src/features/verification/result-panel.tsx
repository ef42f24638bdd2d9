const TONES: Record<string, string> = {
  approved: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  pending: 'border-amber-200 bg-amber-50 text-amber-900',
  rejected: 'border-red-200 bg-red-50 text-red-900',
  failed: 'border-red-200 bg-red-50 text-red-900',
};

/**
 * The facial age check's result line as spec 01 §8 words it ("Age verification approved! Results stored
 * securely." / "Age verification rejected."); the plain explanation follows it. Other outcomes have none.
 */
export function facialResultHeadline(status: string): string | undefined {
  if (status === 'approved') return 'Age verification approved! Results stored securely.';
  if (status === 'rejected') return 'Age verification rejected.';
  return undefined;
}

/** The outcome of one verification, announced to screen readers as it appears. */
export function ResultPanel({
  status,
  headline,
  title,
  message,
  children,
}: {
  status: string;
  /** A first line above the title (the spec's wording of the outcome). */
  headline?: string;
  title: string;
  message: string;
  children?: React.ReactNode;
}) {
  return (
    <div role="status" className={`rounded-lg border p-4 text-sm ${TONES[status] ?? TONES.pending}`}>
      {headline ? <p className="font-semibold">{headline}</p> : null}
      <p className={headline ? 'mt-1 font-medium' : 'font-semibold'}>{title}</p>
      <p className="mt-1">{message}</p>
      {children}
    </div>
  );
}
