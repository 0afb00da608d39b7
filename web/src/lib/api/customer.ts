// Login by mobile number and SMS code (spec 7 "Customer"), and what a logged-in customer has.
// The login is bound to the buyer's session on the server, so a reload keeps it.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiGet, apiSend } from './client';
import type { components } from './schema';

type Schemas = components['schemas'];
export type CustomerLogin = Schemas['CustomerLoginResponse'];
export type SavedCard = Schemas['SavedCardDto'];

export const customerKeys = {
  me: ['customer', 'me'] as const,
  savedCards: ['customer', 'savedCards'] as const,
};

/** Who is logged in on this session; null when nobody is (the server answers 401 loginError). */
export const meQuery = queryOptions({
  queryKey: customerKeys.me,
  queryFn: async ({ signal }): Promise<CustomerLogin | null> => {
    try {
      return await apiGet<CustomerLogin>('/customer/me', undefined, signal);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'loginError') return null;
      throw error;
    }
  },
  staleTime: 60_000,
  retry: false,
});

export const savedCardsQuery = queryOptions({
  queryKey: customerKeys.savedCards,
  queryFn: ({ signal }) =>
    apiGet<Schemas['SavedCardsResponse']>('/customer/saved-cards', undefined, signal),
  staleTime: 60_000,
  retry: false,
});

/** Sends a 6-digit code by SMS. At checkout a proven number is enough, customer or not. */
export function requestLoginCode(
  mobileNumber: string,
  recaptchaToken: string,
  sendSmsRegardlessOfCustomerExistence = true,
): Promise<{ success: boolean }> {
  return apiSend<{ success: boolean }>('POST', '/customer/mobile-login', {
    mobileNumber,
    recaptchaToken,
    sendSmsRegardlessOfCustomerExistence,
  });
}

export function validateLoginCode(mobileNumber: string, smsCode: string): Promise<CustomerLogin> {
  return apiSend<CustomerLogin>('POST', '/customer/mobile-login-validation-area', {
    mobileNumber,
    smsCode,
  });
}

export function logout(): Promise<{ success: boolean }> {
  return apiSend<{ success: boolean }>('POST', '/customer/logout', {});
}

/** Logs out (the server rotates the session id); nobody is logged in afterwards, whatever it said. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['logout'] as const,
    mutationFn: logout,
    onSettled: () => {
      queryClient.setQueryData(customerKeys.me, null);
      void queryClient.invalidateQueries({ queryKey: customerKeys.savedCards });
    },
  });
}
