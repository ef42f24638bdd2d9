import { useQuery } from '@tanstack/react-query';
import { Panel } from '../partner/ui';
import { usageQueryOptions } from './api';
import { UsageBar } from './usage-bar';

/** This month's usage with the §9 bar and alerts, for the partner dashboard (renders nothing until loaded). */
export function UsageSummary() {
  const usage = useQuery(usageQueryOptions());
  if (!usage.data) return null;
  return (
    <Panel title={`Usage · ${usage.data.current_plan.name} plan`} id="usage-summary">
      <UsageBar usage={usage.data.usage} />
    </Panel>
  );
}
