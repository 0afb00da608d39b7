import type { PricedCart } from '../../../lib/api/types';
import { initialOrderState, type OrderState } from '../model/orderState';

/** An order at its payment step with `cart` priced, its timer running to `expiresAt`. */
export function orderAtPayment(
  cart: PricedCart,
  overrides: Partial<OrderState> = {},
  expiresAt: string | null = null,
): OrderState {
  return {
    ...initialOrderState({ hasProducts: cart.products.length > 0 }),
    resuming: false,
    step: 'payment',
    cart,
    clock: expiresAt
      ? { expiresAt, serverTime: new Date().toISOString(), receivedAt: Date.now() }
      : null,
    ...overrides,
  };
}
