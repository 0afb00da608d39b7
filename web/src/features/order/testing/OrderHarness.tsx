// For the steps' own tests: one order's state around a step, as the page would hold it, with
// every event the step reports and every restart it asks for seen by the test.
import { useMemo, useReducer, type ReactNode } from 'react';
import type { Presentation } from '../../../lib/api/types';
import { StepFrame } from '../components/StepFrame';
import { OrderContext } from '../hooks/orderContext';
import { orderReducer, type OrderEvent, type OrderState } from '../model/orderState';

export function OrderHarness({
  presentation,
  initial,
  onEvent,
  onRestart,
  children,
}: {
  presentation: Presentation;
  initial: OrderState;
  onEvent?: (event: OrderEvent) => void;
  onRestart?: () => void;
  children: ReactNode;
}) {
  const [state, dispatch] = useReducer(orderReducer, initial);
  const value = useMemo(
    () => ({
      presentation,
      state,
      dispatch: (event: OrderEvent) => {
        onEvent?.(event);
        dispatch(event);
      },
      restart: () => {
        onRestart?.();
        dispatch({ type: 'restarted' });
      },
    }),
    [presentation, state, onEvent, onRestart],
  );
  return (
    <OrderContext value={value}>
      <StepFrame>{children}</StepFrame>
    </OrderContext>
  );
}
