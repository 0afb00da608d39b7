import { useCallback, useEffect } from 'react';
import { forgetScreenings } from '../model/earlierScreenings';
import { settleReturnedPayment } from '../model/returnedPayment';
import { Loading } from '../../../components/ui/Loading';
import type { Presentation, SiteConfig } from '../../../lib/api/types';
import { useConfig } from '../../../lib/config';
import { OrderContext } from '../hooks/orderContext';
import { useOrderFlow } from '../hooks/useOrderFlow';
import { ConfirmationStep } from './confirmation/ConfirmationStep';
import { LostSeats } from './LostSeats';
import { OrderSteps } from './OrderSteps';
import { StepFrame } from './StepFrame';
import { PaymentStep } from './payment/PaymentStep';
import { ReturnedPayment } from './payment/ReturnedPayment';
import { ProductsStep } from './products/ProductsStep';
import { SeatStep } from './seats/SeatStep';
import { VodPlace } from './seats/VodPlace';
import { TicketsStep } from './tickets/TicketsStep';

/** The steps of one order; the order's state is theirs to read (OrderContext). */
export function OrderFlow({ presentation }: { presentation: Presentation }) {
  const config = useConfig();
  const order = useOrderFlow(presentation);
  const { state, dispatch, restart } = order;
  const paid = state.step === 'confirmation';
  useEffect(() => {
    // One reservation holds the whole cart: its earlier screenings are bought with it.
    if (paid) forgetScreenings();
  }, [paid]);

  const toTickets = useCallback(() => dispatch({ type: 'wentTo', step: 'tickets' }), [dispatch]);

  if (state.resuming) return <Loading />;

  return (
    <OrderContext value={order}>
      <OrderSteps
        current={state.step}
        skip={[
          ...(state.hasProducts ? [] : (['products'] as const)),
          // Video on demand has no seat to choose (decision 0053).
          ...(presentation.isVod ? (['seats'] as const) : []),
        ]}
      />
      {state.lostSeats && <LostSeats seats={state.lostSeats} />}
      <StepFrame>
        {state.step === 'seats' && presentation.isVod && (
          <VodPlace presentation={presentation} onContinue={toTickets} />
        )}
        {state.step === 'seats' && !presentation.isVod && (
          <SeatStep presentation={presentation} onContinue={toTickets} />
        )}
        {state.step === 'tickets' && <TicketsStep />}
        {state.step === 'products' && state.choice && state.cart && <ProductsStep />}
        {state.step === 'payment' && state.cart && config.raw && (
          <PaymentStep config={config.raw as SiteConfig} />
        )}
        {state.step === 'payment' && state.returnedPayment !== null && (
          <ReturnedPayment
            presentationId={presentation.id}
            paymentId={state.returnedPayment}
            onPaid={(reservation) => {
              settleReturnedPayment();
              dispatch({ type: 'paid', reservation });
            }}
            onRestart={() => {
              settleReturnedPayment();
              restart();
            }}
          />
        )}
        {state.step === 'confirmation' && state.reservation && (
          <ConfirmationStep reservationIdentifier={state.reservation} />
        )}
      </StepFrame>
    </OrderContext>
  );
}
