import { Link } from '@tanstack/react-router';
import { USAGE_THRESHOLDS, usageColor, type SubscriptionUsage } from '@attestly/contracts';

const BAR: Record<ReturnType<typeof usageColor>, string> = {
  red: 'bg-red-600',
  yellow: 'bg-amber-400',
  blue: 'bg-indigo-600',
};

/**
 * The monthly usage bar (spec 01 §9): red at 90 % or more, yellow at 75 % or more, blue otherwise, width capped at
 * 100 %; an alert above 80 %, with an upgrade hint above 90 %.
 */
export function UsageBar({ usage }: { usage: SubscriptionUsage }) {
  const percentage = usage.usage_percentage;
  const color = usageColor(percentage);
  return (
    <div className="space-y-2">
      <div className="flex items-baseline justify-between text-sm">
        <span className="text-slate-700">
          {usage.current_month_verifications.toLocaleString('en-US')} of{' '}
          {usage.verifications_limit.toLocaleString('en-US')} verifications this month
        </span>
        <span className="font-semibold text-slate-900">{percentage}%</span>
      </div>
      <div
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label="Monthly verification usage"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(100, percentage)}
        data-color={color}
      >
        <div
          className={`h-full rounded-full ${BAR[color]}`}
          style={{ width: `${Math.min(100, percentage)}%` }}
        />
      </div>
      {percentage > USAGE_THRESHOLDS.alert ? (
        <div
          role="alert"
          className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <p>
            You have used {percentage}% of this month&apos;s verifications.
            {percentage >= 100
              ? ' Your users can still verify, but their approvals are not counted or sent to you until the quota resets.'
              : ''}
          </p>
          {percentage > USAGE_THRESHOLDS.upgradeHint ? (
            <p className="mt-1">
              <Link to="/partner/plans" className="font-semibold underline">
                Upgrade your plan
              </Link>{' '}
              to keep verifying without interruption.
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
