// The checkout's login and logout as mutations; who is logged in is lib/api/customer's query.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customerKeys, requestLoginCode, validateLoginCode } from '../../../lib/api/customer';
import type { Captcha } from '../../../lib/captcha';

/** Sends a 6-digit code by SMS to a proven (local-form) mobile number. */
export function useRequestLoginCode(captcha: Captcha) {
  return useMutation({
    mutationKey: ['loginCode'] as const,
    mutationFn: async (mobileNumber: string) =>
      requestLoginCode(mobileNumber, await captcha('mobileLogin'), true),
  });
}

/** Checks the code: the session is then the customer's (and so are the saved cards). */
export function useValidateLoginCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['login'] as const,
    mutationFn: ({ mobileNumber, code }: { mobileNumber: string; code: string }) =>
      validateLoginCode(mobileNumber, code),
    onSuccess: (login) => {
      queryClient.setQueryData(customerKeys.me, login);
      // Everyone showing the login (the site header too) asks the server again.
      void queryClient.invalidateQueries({ queryKey: customerKeys.me });
      void queryClient.invalidateQueries({ queryKey: customerKeys.savedCards });
    },
  });
}

export { useLogout } from '../../../lib/api/customer';
