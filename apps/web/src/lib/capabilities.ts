import { useQuery } from '@tanstack/react-query';
import { siteConfigQueryOptions, type SiteConfig } from '../api/site';

/**
 * The credit-card age check where this installation offers it (Stripe configured), else null. Every screen that
 * would mention card checks — the landing page, the guide, the privacy page, the verification methods, the back
 * office filters — asks this first: without Stripe nothing mentions them (issue 25 item 1).
 */
export function useCardCheck(): SiteConfig['capabilities']['card_check'] {
  const config = useQuery(siteConfigQueryOptions());
  return config.data?.capabilities.card_check ?? null;
}
