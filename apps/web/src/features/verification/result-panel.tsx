const TONES: Record<string, string> = {
  approved: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  pending: 'border-amber-200 bg-amber-50 text-amber-900',
  rejected: 'border-red-200 bg-red-50 text-red-900',
  failed: 'border-red-200 bg-red-50 text-red-900',
};

/** The outcome of one verification, announced to screen readers as it appears. */
export function ResultPanel({
  status,
  title,
  message,
  children,
}: {
  status: string;
  title: string;
  message: string;
  children?: React.ReactNode;
}) {
  return (
    <div role="status" className={`rounded-lg border p-4 text-sm ${TONES[status] ?? TONES.pending}`}>
      <p className="font-semibold">{title}</p>
      <p className="mt-1">{message}</p>
      {children}
    </div>
  );
}
