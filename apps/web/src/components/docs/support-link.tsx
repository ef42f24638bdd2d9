import { useQuery } from '@tanstack/react-query';
import { siteConfigQueryOptions } from '../../api/site';

/** The support mailto, from the appliance's configuration (ATTESTLY_SUPPORT_EMAIL). */
export function SupportLink({ className, children }: { className: string; children?: React.ReactNode }) {
  const config = useQuery(siteConfigQueryOptions());
  if (config.isPending) {
    return (
      <span className={className} role="status">
        Loading contact…
      </span>
    );
  }
  if (config.isError) {
    return (
      <button type="button" className={className} onClick={() => void config.refetch()}>
        Contact details unavailable — retry
      </button>
    );
  }
  return (
    <a className={className} href={`mailto:${config.data.support_email}`}>
      {children ?? config.data.support_email}
    </a>
  );
}
