import type { TFunction } from 'i18next';
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { CheckoutLogin } from '../login/CheckoutLogin';
import { ApiError } from '../../../../lib/api/client';
import { meQuery, savedCardsQuery } from '../../../../lib/api/customer';
import { captchaTokenFor } from '../../../../lib/captcha';
import type { SiteConfig } from '../../../../lib/api/types';
import { errorMessage } from '../../../../lib/apiErrors';
import { formatMoney } from '../../../../lib/format';
import { localizedName } from '../../../../lib/localized';
import { CustomerInfoForm } from '../../../../components/checkout/CustomerInfoForm';
import type { CustomerInfo } from '../../../../components/checkout/customerInfo';
import {
  chosenAmong,
  useOfferedMethods,
  type OfferedMethod,
} from '../../../../components/checkout/methods';
import { PaymentDialog } from './PaymentDialog';
import { SavedCardChoice } from './SavedCardChoice';
import { isReturnAnswer } from '../../model/paymentDialog';
import { PaymentMethods } from '../../../../components/checkout/PaymentMethods';
import { cartBodyFrom, useCommitOrder, useStartPayment, type PricedCart } from '../../api/payment';
import { Countdown } from '../Countdown';
import { HoldChoice } from '../hold/HoldChoice';
import { TimeExpired } from '../StepHead';
import { loadDetails, saveDetails } from '../../model/orderSession';
import { usePostCart } from '../../api/tickets';
import { useRemaining } from '../../../../lib/useRemaining';
import { seatplanQuery } from '../../api/seats';
import { clockOf, stamp } from '../../../../lib/countdownClock';
import { seniorIdsOf } from '../../model/ticketLines';
import { useOrder } from '../../hooks/orderContext';
import { OrderSummary } from './OrderSummary';
import { VoucherBox } from './VoucherBox';
import './PaymentStep.css';
import '../tickets/TicketsStep.css';

type CommitFailure =
  { kind: 'alreadyPaid' } | { kind: 'refunded' } | { kind: 'retryable'; message: string };

/**
 * The order's payment step: the buyer's details (sent with the cart), the order summary, vouchers,
 * the payment method, then the gateway's dialog and the commit. Shown once the cart is priced.
 */
export function PaymentStep({ config }: { config: SiteConfig }) {
  const { state } = useOrder();
  return state.cart ? <Payment cart={state.cart} config={config} /> : null;
}

function Payment({ cart, config }: { cart: PricedCart; config: SiteConfig }) {
  const { presentation, state, dispatch, restart: onRestart } = useOrder();
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const captcha = useCallback((action: string) => captchaTokenFor(config, action), [config]);
  const { customerInfo, clock, choice } = state;
  // Senior citizens' IDs are not echoed back by the server: every post of the cart sends them.
  const seniorIds = useMemo(
    () => (choice ? seniorIdsOf(choice.lines, choice.groups) : undefined),
    [choice],
  );
  const [editingAgain, setEditingAgain] = useState(false);
  // What the buyer typed before a reload or a language switch (never an ID number or birth date).
  const [keptDetails] = useState(() => loadDetails(presentation.id));
  const keepDetails = useCallback(
    (values: Partial<CustomerInfo>) => saveDetails(presentation.id, values),
    [presentation.id],
  );
  const editing = customerInfo === null || editingAgain;
  const remaining = useRemaining(clock?.expiresAt, clock?.serverTime ?? '', clock?.receivedAt ?? 0);
  // Only the methods a provider takes for the order's currency (issue 20).
  const offered = useOfferedMethods(cart.currency);
  const [picked, setMethod] = useState<OfferedMethod>('card');
  const method = chosenAmong(picked, offered);
  const [numberOfPayments, setNumberOfPayments] = useState(1);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [payError, setPayError] = useState<string | null>(null);
  const postCart = usePostCart();
  const startPayment = useStartPayment(captcha);
  const commitOrder = useCommitOrder(cart.presentationId, captcha);
  const committing = commitOrder.isPending;
  const commitFailure = commitOrder.error ? commitFailureOf(commitOrder.error, t) : null;
  // One commit at a time, even when the gateway's message and the poll report the capture together.
  const committingRef = useRef(false);
  const me = useQuery(meQuery);
  const loggedIn = Boolean(me.data);
  // A proven number with no customer behind it is a login too, but it has no cards to list (the
  // server answers its saved-cards call with 401 loginError): only a customer's login asks.
  const isCustomer = Boolean(me.data?.customerInfo);
  const savedCards = useQuery({
    ...savedCardsQuery,
    enabled: method === 'savedCard' && isCustomer,
  });
  const usableCards = (savedCards.data?.savedCards ?? []).filter((c) => !c.isExpired);
  // The chosen saved card: the first usable one until the buyer picks another.
  const [chosenCard, setChosenCard] = useState<string | null>(null);
  const cardToken = usableCards.find((c) => c.token === chosenCard)?.token ?? usableCards[0]?.token;
  const savedCardToken = method === 'savedCard' && isCustomer ? cardToken : undefined;
  // Why Pay is off while a saved card is chosen, said next to the button (null: it is not off).
  const savedCardBlock = method === 'savedCard' ? savedCardBlockReason() : null;
  function savedCardBlockReason(): string | null {
    if (me.isPending) return t('checkout.savedCards.checking');
    if (me.isError) return errorMessage(t, me.error);
    if (!loggedIn) return t('checkout.savedCards.logInFirst');
    if (!isCustomer) return t('checkout.savedCards.noAccount');
    if (savedCards.isPending) return t('checkout.savedCards.loading');
    if (savedCards.isError) return errorMessage(t, savedCards.error);
    return usableCards.length === 0 ? t('checkout.savedCards.none') : null;
  }
  const [noAccountNotice, setNoAccountNotice] = useState(false);
  // Saving the new card is the customer's choice each time, and only where the site allows it.
  const offerSaveCard = method === 'card' && isCustomer && config.allowSaveMemberCard;
  const [saveCard, setSaveCard] = useState(false);
  const blockId = useId();

  // The priced cart names sections in Hebrew only; the seat plan has their English names.
  const plan = useQuery(
    seatplanQuery(presentation.venueId, presentation.seatplanId, captcha, presentation.id),
  );
  const sectionName = (sectionId: number, fallback: string) => {
    const section = plan.data?.seatplan.sections.find((s) => s.id === sectionId);
    return section ? localizedName(lang, section.name, section.nameEn) : fallback;
  };
  const money = (agorot: number) => formatMoney(agorot, lang, cart.currency);
  const vouchers = cart.voucherPayments.map((v) => v.reference);

  async function submitDetails(info: CustomerInfo) {
    // A formValidation rejection is shown on the fields by the form itself.
    const answer = await postCart.mutateAsync(
      cartBodyFrom(cart, {
        customerInfo: info,
        voucherReferences: vouchers,
        locale: lang,
        seniorIds,
      }),
    );
    dispatch({ type: 'detailsSaved', customerInfo: info, answer: stamp(answer) });
    setEditingAgain(false);
  }

  async function repostVouchers(references: readonly string[]) {
    const answer = await postCart.mutateAsync(
      cartBodyFrom(cart, { customerInfo, voucherReferences: references, locale: lang, seniorIds }),
    );
    dispatch({ type: 'cartRepriced', answer: stamp(answer) });
  }

  const presentationId = cart.presentationId;
  const total = cart.total;

  const { mutate: commitMutate, reset: resetCommit } = commitOrder;
  const commit = useCallback(() => {
    if (committingRef.current) return;
    committingRef.current = true;
    commitMutate(undefined, {
      onSuccess: (answer) => dispatch({ type: 'paid', reservation: answer.reservationIdentifier }),
      onSettled: () => {
        committingRef.current = false;
      },
    });
  }, [commitMutate, dispatch]);

  const returnPath = orderReturnPath(presentation.id);
  const { mutateAsync: startPaymentAsync } = startPayment;
  const loadForm = useCallback(
    async (signal: AbortSignal) => {
      const form = await startPaymentAsync({
        lang,
        query: {
          presentationId,
          total,
          method,
          numberOfPayments,
          returnPath,
          ...(offerSaveCard && saveCard ? { saveCard: true } : {}),
          ...(savedCardToken ? { savedCardToken } : {}),
        },
        signal,
      });
      // A started payment keeps the seats for its own window.
      dispatch({ type: 'paymentStarted', clock: clockOf(stamp(form)) });
      // A saved card charged by its token has no page: the answer is this page again, and a
      // payment still open is followed by its status (decision 0066).
      const noPage =
        savedCardToken !== undefined &&
        isReturnAnswer(form.paymentFormURL, returnPath, window.location.origin);
      return { ...form, noPage };
    },
    [
      lang,
      presentationId,
      total,
      method,
      numberOfPayments,
      returnPath,
      offerSaveCard,
      saveCard,
      savedCardToken,
      startPaymentAsync,
      dispatch,
    ],
  );

  const onCaptured = useCallback(() => {
    setDialogOpen(false);
    commit();
  }, [commit]);

  async function pay() {
    setPayError(null);
    resetCommit();
    if (cart.amountDue > 0) {
      setDialogOpen(true);
      return;
    }
    // Vouchers cover the order: the payment form answers `paid` with no gateway page to show.
    try {
      const form = await loadForm(new AbortController().signal);
      if (form.paid) commit();
      else setDialogOpen(true);
    } catch (error) {
      setPayError(errorMessage(t, error));
    }
  }

  const paying = dialogOpen || committing;
  const expired = remaining !== null && remaining <= 0 && !paying;
  const payBlock = cart.amountDue > 0 ? savedCardBlock : null;

  return (
    <div className="payment-step">
      {remaining !== null && remaining > 0 && !paying && (
        <div className="tickets-step__head payment-step__head">
          <Countdown ms={remaining} />
        </div>
      )}
      {expired && <TimeExpired onRestart={onRestart} />}
      <OrderSummary cart={cart} money={money} sectionName={sectionName} />

      {editing ? (
        <section className="payment-step__section" aria-labelledby="payment-step-details">
          <h2 id="payment-step-details" className="payment-step__heading">
            {t('checkout.step.detailsTitle')}
          </h2>
          <CustomerInfoForm
            config={config}
            initialValues={customerInfo ?? keptDetails ?? undefined}
            onSubmit={submitDetails}
            onValuesChange={keepDetails}
          />
        </section>
      ) : (
        <>
          <section className="payment-step__section payment-step__details-done">
            <p>
              {t('checkout.step.detailsSaved', {
                name: `${customerInfo?.firstName ?? ''} ${customerInfo?.lastName ?? ''}`.trim(),
              })}
            </p>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => setEditingAgain(true)}
            >
              {t('checkout.step.editDetails')}
            </button>
          </section>

          <VoucherBox
            presentationId={presentationId}
            captcha={captcha}
            applied={vouchers}
            repricing={postCart.isPending}
            money={money}
            onApply={(reference) => repostVouchers([...vouchers, reference])}
            onRemove={(reference) => repostVouchers(vouchers.filter((r) => r !== reference))}
          />

          <section className="payment-step__section" aria-labelledby="payment-step-pay">
            <h2 id="payment-step-pay" className="payment-step__heading">
              {t('checkout.step.paymentTitle')}
            </h2>
            {cart.amountDue > 0 && (
              <PaymentMethods
                value={method}
                onChange={(m) => {
                  setMethod(m);
                  setNumberOfPayments(1);
                  setNoAccountNotice(false);
                }}
                numberOfPayments={numberOfPayments}
                onNumberOfPaymentsChange={setNumberOfPayments}
                methods={offered}
              />
            )}
            {cart.amountDue > 0 && method === 'savedCard' && !loggedIn && !me.isPending && (
              <CheckoutLogin
                reason="savedCard"
                captcha={captcha}
                initialMobile={customerInfo?.mobileNumber}
                onLoggedIn={(login) => {
                  // No customer account for the number, so no saved cards: a new card it is.
                  if (!login.customerInfo) {
                    setMethod('card');
                    setNoAccountNotice(true);
                  }
                }}
              />
            )}
            {cart.amountDue > 0 && method === 'card' && noAccountNotice && (
              <p className="payment-step__notice" role="status">
                {t('checkout.savedCards.noAccountNewCard')}
              </p>
            )}
            {cart.amountDue > 0 &&
              method === 'savedCard' &&
              isCustomer &&
              savedCards.isSuccess &&
              usableCards.length > 0 && (
                <SavedCardChoice
                  cards={savedCards.data.savedCards}
                  chosen={cardToken}
                  onChoose={setChosenCard}
                />
              )}
            {cart.amountDue > 0 && offerSaveCard && (
              <label className="checkout-check payment-step__save-card">
                <input
                  type="checkbox"
                  checked={saveCard}
                  onChange={(e) => setSaveCard(e.target.checked)}
                />
                <span>{t('checkout.saveCard.label')}</span>
              </label>
            )}
            {payBlock && (
              <div className="payment-step__blocked" id={blockId}>
                <p>{payBlock}</p>
                {method === 'savedCard' && loggedIn && !isCustomer && (
                  <button
                    type="button"
                    className="button button--ghost"
                    onClick={() => setMethod('card')}
                  >
                    {t('checkout.savedCards.useNewCard')}
                  </button>
                )}
              </div>
            )}
            <p className="payment-step__error" role="alert">
              {payError}
            </p>
            <button
              type="button"
              className="button button--primary payment-step__pay"
              disabled={committing || dialogOpen || expired || payBlock !== null}
              aria-describedby={payBlock ? blockId : undefined}
              onClick={() => void pay()}
            >
              {cart.amountDue > 0
                ? t('checkout.step.pay', { amount: money(cart.amountDue) })
                : t('checkout.step.complete')}
            </button>
          </section>
          {!paying && !expired && (
            <HoldChoice
              presentationId={presentationId}
              captcha={captcha}
              payButtonClass="payment-step__pay"
            />
          )}
        </>
      )}

      {committing && (
        <p className="payment-step__status" role="status">
          {t('checkout.commit.committing')}
        </p>
      )}
      {commitFailure && (
        <div className="payment-step__failure" role="alert">
          {commitFailure.kind === 'alreadyPaid' ? (
            <p>{t('errors.ORDER_ALREADY_PAID')}</p>
          ) : commitFailure.kind === 'refunded' ? (
            <>
              <p>{t('checkout.commit.refunded')}</p>
              <button type="button" className="button button--primary" onClick={onRestart}>
                {t('checkout.payment.startOver')}
              </button>
            </>
          ) : (
            <>
              <p>{commitFailure.message}</p>
              <button type="button" className="button button--primary" onClick={commit}>
                {t('checkout.commit.retry')}
              </button>
            </>
          )}
        </div>
      )}

      {dialogOpen && (
        <PaymentDialog
          loadForm={loadForm}
          onCaptured={onCaptured}
          onRestart={() => onRestart()}
          onClose={() => setDialogOpen(false)}
        />
      )}
    </div>
  );
}

/** Where the gateway sends a whole-window payment back: this order page, in the same language. */
function orderReturnPath(presentationId: number): string {
  const lang = new URLSearchParams(window.location.search).get('lang');
  return `/order/${presentationId}${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`;
}

function commitFailureOf(error: unknown, t: TFunction): CommitFailure {
  if (error instanceof ApiError) {
    if (error.code === 'ORDER_ALREADY_PAID') return { kind: 'alreadyPaid' };
    if (error.code === 'lastCommit' && error.params?.refunded === true) return { kind: 'refunded' };
    if (error.code === 'paymentPending') {
      return { kind: 'retryable', message: t('checkout.commit.pending') };
    }
  }
  return { kind: 'retryable', message: errorMessage(t, error) };
}
