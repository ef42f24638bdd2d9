import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../api/client';
import { usersApi } from '../../api/users';
import { toast } from '../../lib/toast';

/** Mails a new verification link to `email` (the dashboard banner and the profile's contact checks), said in a toast. */
export function useSendEmailVerification(email: string) {
  return useMutation({
    mutationFn: () => usersApi.sendEmailVerification(),
    onSuccess: (answer) => toast.success(`${answer.message} to ${email}`),
    onError: (error) => toast.error(errorMessage(error, 'Failed to send the verification email')),
  });
}
