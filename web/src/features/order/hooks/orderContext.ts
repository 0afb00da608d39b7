import { createContext, useContext, type Dispatch } from 'react';
import type { Presentation } from '../../../lib/api/types';
import type { OrderEvent, OrderState } from '../model/orderState';

/** What every step of one order reads and reports to. */
export interface OrderContextValue {
  presentation: Presentation;
  state: OrderState;
  dispatch: Dispatch<OrderEvent>;
  /** Back to the seat map with the holds as the server has them now (time ran out, payment lost). */
  restart: () => void;
}

export const OrderContext = createContext<OrderContextValue | null>(null);

export function useOrder(): OrderContextValue {
  const order = useContext(OrderContext);
  if (!order) throw new Error('useOrder() outside an order (<OrderContext>)');
  return order;
}
