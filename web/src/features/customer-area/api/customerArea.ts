// The customer area's calls (spec 7 "Customer"): its data in one answer, the chain's locations,
// the profile, the account's deletion, the tickets by SMS, saved cards and logout. This file owns
// the area's query keys.
import { useEffect } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiGet, apiSend } from '../../../lib/api/client';
import { customerKeys, meQuery } from '../../../lib/api/customer';
import type { components } from '../../../lib/api/schema';

type Schemas = components['schemas'];
export type AreaCustomer = Schemas['AreaCustomer'];
export type AreaReservation = Schemas['AreaReservation'];
export type AreaSeat = Schemas['AreaSeat'];
export type VodItem = Schemas['VodItem'];
export type MemberCard = Schemas['MemberCard'];
export type SavedCard = Schemas['SavedCardDto'];
export type LocationDto = Schemas['LocationDto'];
export type ProfileBody = Schemas['ProfileBody'];
export type CustomerAreaData = Schemas['CustomerAreaDataResponse'];

export const areaKeys = {
  data: ['customerArea', 'data'] as const,
  locations: ['customer', 'locations'] as const,
};

/**
 * The area of the logged-in customer; null when nobody is logged in (401 loginError), so the page
 * sends the visitor to the login. Any other failure is an error to show.
 */
export const customerAreaQuery = queryOptions({
  queryKey: areaKeys.data,
  queryFn: async ({ signal }): Promise<CustomerAreaData | null> => {
    try {
      return await apiGet<CustomerAreaData>('/customer-area/customerAreaData', undefined, signal);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'loginError') return null;
      throw error;
    }
  },
  retry: false,
  // Asked again on every visit: a login or logout elsewhere (the login page, another tab)
  // changes whose area it is, and a remembered "nobody" would send a customer who just logged
  // in back to the login.
  staleTime: 0,
});

export const locationsQuery = queryOptions({
  queryKey: areaKeys.locations,
  queryFn: ({ signal }) =>
    apiGet<Schemas['LocationsResponse']>('/customer/locations', undefined, signal),
  staleTime: 10 * 60_000,
});

/** Saves the profile; the area is read again. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['customerArea', 'profile'] as const,
    mutationFn: (body: ProfileBody) =>
      apiSend<Schemas['ProfileResponse']>('PUT', '/customer-area/profile', body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: areaKeys.data });
      void queryClient.invalidateQueries({ queryKey: customerKeys.me });
    },
  });
}

/** Which contact detail a change is of. */
export type ContactKind = 'email' | 'mobile';

/**
 * A proven change of the email address or the mobile number (decision 0031): `request` sends a
 * code to the new one, `confirm` brings it back and makes the change; the area is read again.
 */
export function useContactChange(kind: ContactKind) {
  const queryClient = useQueryClient();
  const base = kind === 'email' ? '/customer-area/email-change' : '/customer-area/mobile-change';
  const request = useMutation({
    mutationFn: ({ value, recaptchaToken }: { value: string; recaptchaToken: string }) =>
      apiSend<Schemas['SuccessResponse']>(
        'POST',
        base,
        kind === 'email'
          ? { email: value, recaptchaToken }
          : { mobileNumber: value, recaptchaToken },
      ),
  });
  const confirm = useMutation({
    mutationFn: ({ value, code }: { value: string; code: string }) =>
      apiSend<Schemas['ContactResponse']>(
        'POST',
        `${base}/confirm`,
        kind === 'email' ? { email: value, code } : { mobileNumber: value, smsCode: code },
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: areaKeys.data });
      void queryClient.invalidateQueries({ queryKey: customerKeys.me });
    },
  });
  return { request, confirm };
}

/** Sends a reservation's tickets by SMS (the owner's own reservation only). */
export function useSendTicketsBySms(reservationId: string) {
  return useMutation({
    mutationKey: ['customerArea', 'sendTickets', reservationId] as const,
    mutationFn: (mobileNumber: string) =>
      apiSend<{ success: boolean }>(
        'POST',
        `/reservations/${encodeURIComponent(reservationId)}/sendTickets`,
        { mobileNumber },
      ),
  });
}

export function useDeleteSavedCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['customerArea', 'deleteCard'] as const,
    mutationFn: (token: string) =>
      apiSend<{ success: boolean }>(
        'DELETE',
        `/customer/saved-cards/${encodeURIComponent(token)}`,
        undefined,
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: areaKeys.data });
      void queryClient.invalidateQueries({ queryKey: customerKeys.savedCards });
    },
  });
}

/** Nobody is logged in afterwards, whatever the server said: forget what was shown. */
function forgetLogin(queryClient: ReturnType<typeof useQueryClient>) {
  queryClient.setQueryData(customerKeys.me, null);
  queryClient.setQueryData(areaKeys.data, null);
  void queryClient.invalidateQueries({ queryKey: customerKeys.savedCards });
}

export function useAreaLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['customerArea', 'logout'] as const,
    mutationFn: () => apiSend<{ success: boolean }>('POST', '/customer-area/logout', {}),
    onSettled: () => forgetLogin(queryClient),
  });
}

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['customerArea', 'deleteAccount'] as const,
    mutationFn: () =>
      apiSend<{ success: boolean }>('DELETE', '/customer-area/account', { confirm: true }),
    onSuccess: () => forgetLogin(queryClient),
  });
}

/** A logout elsewhere (the site header's) ends the area too: it is read again, and answers 401. */
export function useAreaFollowsLogin() {
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const loggedOut = me.isSuccess && me.data === null;
  useEffect(() => {
    if (loggedOut) void queryClient.invalidateQueries({ queryKey: areaKeys.data });
  }, [loggedOut, queryClient]);
}
