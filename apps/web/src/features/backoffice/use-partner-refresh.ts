import { useQueryClient } from '@tanstack/react-query';
import { adminKeys } from '../../api/admin';

/** Refetches a partner's page and the partner list after a change to the partner. */
export function usePartnerRefresh(partnerId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.partner(partnerId) }),
      queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'partners'] }),
    ]);
}
