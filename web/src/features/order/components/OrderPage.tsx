import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../components/ui/DateTime';
import { Loading } from '../../../components/ui/Loading';
import { Notice } from '../../../components/ui/Notice';
import { errorMessage } from '../../../lib/apiErrors';
import { ApiError } from '../../../lib/api/client';
import { useDocumentTitle } from '../../../lib/documentTitle';
import { featurePosterUrl } from '../../../lib/api/client';
import type { CartResponse, Presentation, SiteConfig } from '../../../lib/api/types';
import { useConfig } from '../../../lib/config';
import { localizedName } from '../../../lib/localized';
import { usePresentation } from '../api/presentation';
import { ConfirmationStep } from './confirmation/ConfirmationStep';
import { OrderSteps } from './OrderSteps';
import type { Step } from '../model/steps';
import { PaymentStep } from './payment/PaymentStep';
import { ProductsStep } from './products/ProductsStep';
import type { CustomerInfo } from '../../../components/checkout/customerInfo';
import { clearOrder, loadOrder, resumePlan, saveOrder } from '../model/orderSession';
import { myHoldsQuery, seatKeys, stamp, type Timed } from '../api/seats';
import { ReturnedPayment } from './payment/ReturnedPayment';
import { takeReturnedPayment } from '../model/returnedPayment';
import { SeatStep } from './seats/SeatStep';
import { postCart } from '../api/tickets';
import { cartBody, seniorIdsOf, type TicketsChoice } from '../model/ticketLines';
import { TicketsStep } from './tickets/TicketsStep';
import './OrderPage.css';

function parseId(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * Where a buy button lands: which screening this is, then the order's steps: seats, tickets,
 * products (when the complex sells any), details and payment, confirmation.
 */
export default function OrderPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const id = parseId(useParams().presentationId);
  const query = usePresentation(id);

  const presentation = query.data?.presentation;
  useDocumentTitle(t('screens.order'));

  return (
    <div className="order-page">
      <h1 className="page-title">{t('order.title')}</h1>
      {id === null ? (
        <Notice title={t('errors.noEvent')} headingLevel={2} tone="error" />
      ) : query.isPending ? (
        <Loading />
      ) : query.isError || !presentation ? (
        <Notice title={t('order.loadError')} headingLevel={2} tone="error">
          <p>{errorMessage(t, query.error)}</p>
        </Notice>
      ) : (
        <>
          <section className="order-summary" aria-labelledby="order-feature-name">
            <img
              className="order-summary__poster"
              src={presentation.featureImageUrl || featurePosterUrl(presentation.featureId)}
              alt=""
              width={120}
              height={180}
            />
            <div className="order-summary__details">
              <h2 id="order-feature-name" className="order-summary__name">
                {localizedName(lang, presentation.featureName, presentation.featureNameEn)}
              </h2>
              <dl className="order-summary__facts">
                <div>
                  <dt>{t('order.complex')}</dt>
                  <dd>
                    {localizedName(lang, presentation.locationName, presentation.locationNameEn)}
                  </dd>
                </div>
                <div>
                  <dt>{t('order.venue')}</dt>
                  <dd>{localizedName(lang, presentation.venueName, presentation.venueNameEn)}</dd>
                </div>
                <div>
                  <dt>{t('order.dateTime')}</dt>
                  <dd>
                    <DateTime iso={presentation.dateTime} lang={lang} />
                  </dd>
                </div>
              </dl>
            </div>
          </section>
          {presentation.isVod ? null : presentation.saleState === 'notYetStarted' ? (
            <Notice title={t('errors.ticketSaleNotStarted')} headingLevel={2} />
          ) : presentation.saleState === 'ended' || !presentation.isOnSale ? (
            <Notice title={t('errors.ticketingEnded')} headingLevel={2} />
          ) : (
            <OrderFlow key={presentation.id} presentation={presentation} />
          )}
        </>
      )}
    </div>
  );
}

/** The steps of one order, and what each hands to the next. */
function OrderFlow({ presentation }: { presentation: Presentation }) {
  const config = useConfig();
  const queryClient = useQueryClient();
  const { i18n } = useTranslation();
  const id = presentation.id;
  const [resuming, setResuming] = useState(true);
  const [step, setStep] = useState<Step>('seats');
  const [choice, setChoice] = useState<TicketsChoice | null>(null);
  const [cart, setCart] = useState<Timed<CartResponse> | null>(null);
  const [products, setProducts] = useState<Record<number, number>>({});
  const [customerInfo, setCustomerInfo] = useState<CustomerInfo | null>(null);
  const [reservation, setReservation] = useState<string | null>(null);
  const hasProducts = (presentation.products?.length ?? 0) > 0;
  // Back from a gateway that took the whole window: finish that payment first.
  const [returnedPayment, setReturnedPayment] = useState(takeReturnedPayment);

  // A reload resumes where the server says the checkout is, with what this tab chose; the cart is
  // posted again at the server's own step, which does not restart its timer.
  useEffect(() => {
    let live = true;
    const saved = loadOrder(id);
    const resume = async () => {
      if (returnedPayment !== undefined) {
        setStep('payment');
        return;
      }
      const holds = await queryClient.fetchQuery(myHoldsQuery(id));
      if (!live) return;
      const plan = resumePlan(holds, saved, hasProducts);
      if (!plan.keep || !saved) {
        clearOrder(id);
        return;
      }
      setChoice(saved.choice);
      setProducts(saved.products);
      if (plan.repost && saved.choice) {
        const body = cartBody(id, saved.choice.lines, saved.choice.groups, {
          step: plan.repost,
          locale: i18n.language,
          memberNumber: saved.choice.memberNumber,
          products: saved.products,
        });
        const details = plan.repost === 'customerInfo' ? saved.customerInfo : null;
        try {
          const answer = await postCart({ ...body, cart: { ...body.cart, customerInfo: details } });
          if (!live) return;
          setCart(stamp(answer));
          setCustomerInfo(details);
        } catch (error) {
          if (!live) return;
          if (error instanceof ApiError && error.code === 'timeExpired') {
            // The holds ran out between the two calls: a fresh start.
            clearOrder(id);
            setChoice(null);
            setProducts({});
            return;
          }
          // The saved cart no longer prices as it was (a code expired, a price changed): the
          // tickets step shows the choices again.
          setStep('tickets');
          return;
        }
      }
      setStep(plan.step);
    };
    resume()
      .catch(() => undefined)
      .finally(() => {
        if (live) setResuming(false);
      });
    return () => {
      live = false;
    };
    // Once per page: later changes are the buyer's own moves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (resuming) return;
    if (step === 'confirmation') clearOrder(id);
    else saveOrder(id, { step, choice, products, customerInfo });
  }, [resuming, id, step, choice, products, customerInfo]);

  const go = (next: Step) => {
    setStep(next);
    if (typeof window !== 'undefined' && typeof window.scrollTo === 'function') {
      try {
        window.scrollTo({ top: 0 });
      } catch {
        // jsdom has no scrolling.
      }
    }
  };

  /** Back to the seat map with the holds as the server has them now (time ran out, restart). */
  const restart = () => {
    setCart(null);
    setChoice(null);
    setProducts({});
    setCustomerInfo(null);
    void queryClient.invalidateQueries({ queryKey: seatKeys.holds(presentation.id) });
    void queryClient.invalidateQueries({ queryKey: seatKeys.status(presentation.id) });
    go('seats');
  };

  const clock = cart
    ? { expiresAt: cart.expiresAt, serverTime: cart.serverTime, receivedAt: cart.receivedAt }
    : null;

  if (resuming) return <Loading />;

  return (
    <>
      <OrderSteps current={step} skip={hasProducts ? [] : ['products']} />
      {step === 'seats' && (
        <SeatStep presentation={presentation} onContinue={() => go('tickets')} />
      )}
      {step === 'tickets' && (
        <TicketsStep
          presentation={presentation}
          initial={choice}
          clock={clock}
          onBack={() => go('seats')}
          onExpired={restart}
          onContinue={(next, answer) => {
            setChoice(next);
            setCart(answer);
            go(hasProducts ? 'products' : 'payment');
          }}
        />
      )}
      {step === 'products' && choice && cart && (
        <ProductsStep
          presentation={presentation}
          choice={choice}
          cart={cart}
          initial={products}
          onBack={() => go('tickets')}
          onExpired={restart}
          onContinue={(next, answer) => {
            setProducts(next);
            setCart(answer);
            go('payment');
          }}
        />
      )}
      {step === 'payment' && cart && config.raw && (
        <PaymentStep
          presentation={presentation}
          cart={cart.cart}
          config={config.raw as SiteConfig}
          seniorIds={choice ? seniorIdsOf(choice.lines, choice.groups) : undefined}
          clock={clock}
          initialCustomerInfo={customerInfo}
          onDetailsSaved={setCustomerInfo}
          onPaid={({ reservationIdentifier }) => {
            setReservation(reservationIdentifier);
            go('confirmation');
          }}
          onRestart={restart}
        />
      )}
      {step === 'payment' && returnedPayment !== undefined && (
        <ReturnedPayment
          presentationId={id}
          paymentId={returnedPayment}
          onPaid={(reservationIdentifier) => {
            setReturnedPayment(undefined);
            setReservation(reservationIdentifier);
            go('confirmation');
          }}
          onRestart={() => {
            setReturnedPayment(undefined);
            restart();
          }}
        />
      )}
      {step === 'confirmation' && reservation && (
        <ConfirmationStep reservationIdentifier={reservation} />
      )}
    </>
  );
}
