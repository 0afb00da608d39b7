import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api/client';
import type { Presentation } from '../../../lib/api/types';
import { myHoldsQuery, seatKeys } from '../api/seats';
import { usePostCart } from '../api/tickets';
import { stamp } from '../../../lib/countdownClock';
import { clearDetails, clearOrder, loadOrder, resumePlan, saveOrder } from '../model/orderSession';
import { initialOrderState, orderReducer, type OrderEvent } from '../model/orderState';
import { takeReturnedPayment } from '../model/returnedPayment';
import { cartBody } from '../model/ticketLines';
import type { OrderContextValue } from './orderContext';

type Resumed = Omit<Extract<OrderEvent, { type: 'resumed' }>, 'type'>;

function scrollToTop() {
  if (typeof window === 'undefined' || typeof window.scrollTo !== 'function') return;
  try {
    window.scrollTo({ top: 0 });
  } catch {
    // jsdom has no scrolling.
  }
}

/**
 * One order's state and what keeps it: the resume after a reload, the copy kept in this tab's
 * session, the scroll to the top of each new step, and the restart.
 */
export function useOrderFlow(presentation: Presentation): OrderContextValue {
  const queryClient = useQueryClient();
  const { i18n } = useTranslation();
  const id = presentation.id;
  const hasProducts = (presentation.products?.length ?? 0) > 0;
  const { mutateAsync: postCart } = usePostCart();
  const [state, dispatch] = useReducer(orderReducer, undefined, () =>
    // Back from a gateway that took the whole window: that payment is finished first.
    initialOrderState({ hasProducts, returnedPayment: takeReturnedPayment() ?? null }),
  );

  // A reload resumes where the server says the checkout is, with what this tab chose; the cart is
  // posted again at the server's own step, which does not restart its timer.
  useEffect(() => {
    let live = true;
    const finish = (resumed: Resumed = {}) => {
      if (live) dispatch({ type: 'resumed', ...resumed });
    };
    const resume = async () => {
      if (state.returnedPayment !== null) return finish({ step: 'payment' });
      const saved = loadOrder(id);
      const holds = await queryClient.fetchQuery(myHoldsQuery(id));
      if (!live) return;
      const plan = resumePlan(holds, saved, hasProducts);
      if (!plan.keep || !saved) {
        clearOrder(id);
        return finish();
      }
      const kept = { choice: saved.choice, products: saved.products };
      if (!plan.repost || !saved.choice) return finish({ ...kept, step: plan.step });
      const body = cartBody(id, saved.choice.lines, saved.choice.groups, {
        step: plan.repost,
        locale: i18n.language,
        memberNumber: saved.choice.memberNumber,
        products: saved.products,
      });
      const details = plan.repost === 'customerInfo' ? saved.customerInfo : null;
      try {
        const answer = await postCart({ ...body, cart: { ...body.cart, customerInfo: details } });
        finish({ ...kept, step: plan.step, cart: stamp(answer), customerInfo: details });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'timeExpired') {
          // The holds ran out between the two calls: a fresh start.
          clearOrder(id);
          return finish();
        }
        // The saved cart no longer prices as it was (a code expired, a price changed): the
        // tickets step shows the choices again.
        finish({ ...kept, step: 'tickets' });
      }
    };
    resume().catch(() => finish());
    return () => {
      live = false;
    };
    // Once per page: later changes are the buyer's own moves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const { resuming, step, choice, products, customerInfo } = state;
  useEffect(() => {
    if (resuming) return;
    if (step === 'confirmation') {
      // A paid order keeps nothing of the buyer's in this tab.
      clearOrder(id);
      clearDetails(id);
    } else saveOrder(id, { step, choice, products, customerInfo });
  }, [resuming, id, step, choice, products, customerInfo]);

  // Each new step starts at the top of the page (not the one a reload resumes at).
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (resuming) return;
    if (shown.current !== null && shown.current !== step) scrollToTop();
    shown.current = step;
  }, [resuming, step]);

  const restart = useCallback(() => {
    dispatch({ type: 'restarted' });
    void queryClient.invalidateQueries({ queryKey: seatKeys.holds(id) });
    void queryClient.invalidateQueries({ queryKey: seatKeys.status(id) });
  }, [queryClient, id]);

  return useMemo(
    () => ({ presentation, state, dispatch, restart }),
    [presentation, state, restart],
  );
}
