// Vouchers and donations (issue 14, decision 0033): what is offered, the cart of either order
// type, its commit, and a paid order read back. Shared by the vouchers page and the donations
// page (features never import each other).
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiSend } from './client';
import type { components } from './schema';

type Schemas = components['schemas'];
export type VoucherClass = Schemas['SystemVoucherClass'];
export type GiftProduct = Schemas['Product'];
export type Donation = Schemas['Donation'];
export type GiftOrder = Schemas['GiftOrderResponse'];
export type IssuedVoucher = Schemas['IssuedVoucher'];
export type GiftCartResponse = Schemas['CartResponse'];
export type CustomerInfo = Schemas['CustomerInfo'];
export type GiftOrderType = 'vouchers' | 'donations';

/** What the buyer chose: the cart's `vouchers` or `donations`, as the spec spells them. */
export type GiftLines =
  | {
      orderType: 'vouchers';
      vouchers: Schemas['CartVoucherIn'][];
      /** Chain-wide products prepaid with the vouchers (decision 0035). */
      products?: Schemas['CartProduct'][];
      /** The waiver a children's voucher needs (decision 0041). */
      waiver?: Schemas['CartWaiverIn'];
    }
  | { orderType: 'donations'; donations: Schemas['CartDonationIn'][] };

export const voucherClassesQuery = queryOptions({
  queryKey: ['gifts', 'voucherClasses'] as const,
  queryFn: ({ signal }) =>
    apiGet<Schemas['VoucherClassesResponse']>('/system-vouchers', undefined, signal),
});

export const donationsQuery = queryOptions({
  queryKey: ['gifts', 'donations'] as const,
  queryFn: ({ signal }) => apiGet<Schemas['DonationsResponse']>('/donations', undefined, signal),
});

export const giftOrderQuery = (id: string) =>
  queryOptions({
    queryKey: ['gifts', 'order', id] as const,
    queryFn: ({ signal }) =>
      apiGet<GiftOrder>(`/gift-orders/${encodeURIComponent(id)}`, undefined, signal),
    retry: false,
  });

/** POST /cart with the chosen vouchers or donations and the buyer's details. */
export function postGiftCart(
  lines: GiftLines,
  customerInfo: CustomerInfo,
  total: number,
  locale: string,
): Promise<GiftCartResponse> {
  const cart =
    lines.orderType === 'vouchers'
      ? {
          presentations: [],
          vouchers: lines.vouchers,
          products: lines.products ?? [],
          ...(lines.waiver ? { waiver: lines.waiver } : {}),
          customerInfo,
          total,
        }
      : { presentations: [], donations: lines.donations, customerInfo, total };
  return apiSend<GiftCartResponse>('POST', '/cart', { cart, step: 'customerInfo', locale });
}

/**
 * POST /cart with the chosen vouchers and their waiver, before the details (decision 0041): the
 * server judges the waiver (the children's ages) as soon as it is signed.
 */
export function postWaiverCart(
  vouchers: Schemas['CartVoucherIn'][],
  waiver: Schemas['CartWaiverIn'],
  locale: string,
): Promise<GiftCartResponse> {
  return apiSend<GiftCartResponse>('POST', '/cart', {
    cart: { presentations: [], vouchers, waiver },
    step: 'products',
    locale,
  });
}

/** POST /payment/commit of the session's paid voucher or donation order. */
export function commitGift(
  orderType: GiftOrderType,
  recaptchaToken: string,
): Promise<Schemas['CommitResponse']> {
  return apiSend<Schemas['CommitResponse']>('POST', '/payment/commit', {
    cart: { [orderType]: [{}] },
    recaptchaToken,
  });
}

export type OwnedVoucher = Schemas['OwnedVoucher'];
export type VoucherEvent = Schemas['VoucherEvent'];

/** GET /system-vouchers/{ref}/history: the voucher's life, for its owner. */
export function voucherHistory(reference: string): Promise<Schemas['VoucherHistoryResponse']> {
  return apiGet<Schemas['VoucherHistoryResponse']>(
    `/system-vouchers/${encodeURIComponent(reference)}/history`,
  );
}

/** POST /system-vouchers/{ref}/replacement: the voucher becomes a replacement voucher. */
export function replaceVoucher(
  reference: string,
  reservationIdentifier: string,
): Promise<Schemas['VoucherActionResponse']> {
  return apiSend<Schemas['VoucherActionResponse']>(
    'POST',
    `/system-vouchers/${encodeURIComponent(reference)}/replacement`,
    { reservationIdentifier },
  );
}

/** POST /system-vouchers/{ref}/cancel: an untouched voucher cancelled and refunded. */
export function cancelVoucher(
  reference: string,
  reservationIdentifier: string,
): Promise<Schemas['VoucherCancelResponse']> {
  return apiSend<Schemas['VoucherCancelResponse']>(
    'POST',
    `/system-vouchers/${encodeURIComponent(reference)}/cancel`,
    { reservationIdentifier },
  );
}
