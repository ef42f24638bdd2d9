import type { QueryClient } from '@tanstack/react-query';
import type { PartnerLoginBody } from '@attestly/contracts';
import { partnerApi, partnerKeys } from '../api/partner';
import { tokens } from './token-storage';

/** spec 01 §4 "Session" for partners: the token goes to the partner slot (remember-me decides where). */
export async function signInPartner(queryClient: QueryClient, body: PartnerLoginBody) {
  const answer = await partnerApi.login(body);
  queryClient.removeQueries({ queryKey: partnerKeys.all });
  tokens.set('partner', answer.access_token, {
    remember: body.rememberMe ?? false,
    expiresAt: answer.expires_at,
  });
  queryClient.setQueryData(partnerKeys.profile(), answer.partner);
  return answer;
}
