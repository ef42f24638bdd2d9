import { HeadedCard, Pill, slugOf } from '../ui/card';

/**
 * Verified / Not verified label of a fact or contact detail. Spec 01 §2 "Profile settings" says "Pending"; one word
 * for an unproven fact on every page reads better, and nothing is waiting to happen on its own (issue 16 item 10).
 */
export function StatusBadge({ verified }: { verified: boolean }) {
  return verified ? <Pill tone="green">Verified</Pill> : <Pill tone="amber">Not verified</Pill>;
}

export function Card({
  title,
  children,
  actions,
}: {
  title: string;
  children: React.ReactNode;
  actions?: React.ReactNode;
}) {
  return (
    <HeadedCard title={title} headingId={`card-${slugOf(title)}`} actions={actions}>
      {children}
    </HeadedCard>
  );
}
