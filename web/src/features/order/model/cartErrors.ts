import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/api/client';
import { errorMessage } from '../../../lib/apiErrors';

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

const NAMED_SEAT_KINDS = ['wheelchair', 'companion', 'limitedView', 'premium', 'sofa'] as const;

/** The kind of seat a tied ticket is sold on, as words ("a wheelchair place"). */
function seatKindPlace(t: TFunction, kind: string | null | undefined): string {
  const named = NAMED_SEAT_KINDS.find((k) => k === kind);
  return t(`order.seatKinds.${named ?? 'other'}`);
}

/**
 * The words for a failed cart, code lookup or member check, filled with the numbers the server
 * sent in `params` (spec 5 coupon messages, Kupa's ticket-rule codes). `ticketName` names a
 * ticket id in the buyer's language; `ticketSeatKind` tells the kind of seat it is tied to.
 */
export function orderErrorMessage(
  t: TFunction,
  error: unknown,
  ticketName: (ticketId: number) => string = () => '',
  ticketSeatKind: (ticketId: number) => string | null | undefined = () => null,
): string {
  if (!(error instanceof ApiError)) return errorMessage(t, error);
  const p = error.params ?? {};
  const ticket = () => {
    const id = num(p.ticketId);
    return id === undefined ? '' : ticketName(id);
  };
  switch (error.code) {
    case 'couponNeedsMoreTickets': {
      const missing = num(p.missing) ?? 1;
      return missing === 1
        ? t('validation.couponOneMoreTicket')
        : t('validation.couponMoreTickets', { count: missing });
    }
    case 'couponAlreadyUsed':
      return t('validation.couponAlreadyUsed');
    case 'couponNoTickets':
      return t('validation.couponNoTickets');
    case 'ticketMaxQuantity':
      return t('order.cartErrors.ticketMax', { ticket: ticket(), max: num(p.max) ?? 0 });
    case 'ticketMinQuantity':
      return t('order.cartErrors.ticketMin', { ticket: ticket(), min: num(p.min) ?? 0 });
    case 'requiredTicketMissing': {
      const required = num(p.requiredTicketId);
      return t('order.cartErrors.requiredTicket', {
        ticket: ticket(),
        required: required === undefined ? '' : ticketName(required),
        count: num(p.missing) ?? 1,
      });
    }
    case 'memberTicketsMax':
      return t('order.cartErrors.memberTicketsMax', { max: num(p.max) ?? 0 });
    case 'ticketCountMismatch':
      return t('validation.seatsCountMismatch');
    case 'sofaSplit':
      return t('validation.seatsTogether');
    case 'mixedPriceLevels':
      return t('validation.seatsSamePriceLevel');
    case 'cartSeatsMismatch':
      return t('order.cartErrors.cartSeatsMismatch');
    case 'priceMismatch':
      return t('order.cartErrors.priceMismatch');
    case 'refPromptOptNotFound': {
      const available = num(p.available);
      return available === undefined
        ? t('errors.refPromptOptNotFound')
        : t('order.cartErrors.refPromptAvailable', { count: available });
    }
    case 'ticketSeatKind': {
      const id = num(p.ticketId);
      return ticket() && id !== undefined
        ? t('order.cartErrors.ticketSeatKind', {
            ticket: ticket(),
            place: seatKindPlace(t, ticketSeatKind(id)),
          })
        : t('errors.ticketSeatKind');
    }
    case 'ticketNotFound':
      return ticket()
        ? t('order.cartErrors.ticketNotSold', { ticket: ticket() })
        : t('errors.ticketNotFound');
    default:
      return errorMessage(t, error);
  }
}
