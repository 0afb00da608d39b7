import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CustomerInfoForm } from './CustomerInfoForm';
import { GiftSummary } from './GiftSummary';
import { PaymentMethods } from './PaymentMethods';
import { ALL_METHODS, chosenAmong, useOfferedMethods, type OfferedMethod } from './methods';
import type { CheckoutConfig, CustomerInfo } from './customerInfo';
import { errorMessage } from '../../lib/apiErrors';
import { formatMoney } from '../../lib/format';
import './OrderFlow.css';

// An order with no seats leaves for the gateway's page in the whole window (no seats wait on this
// page) and comes back to its page: a saved card needs a login these flows do not ask for.
const METHODS: readonly OfferedMethod[] = ALL_METHODS.filter((m) => m !== 'savedCard');

export interface PayChoice {
  method: OfferedMethod;
  numberOfPayments: number;
}

/**
 * The buyer's details and the payment of an order with no seats (vouchers, donations,
 * memberships; spec section 2: "customer info", then the payment step). The feature makes the
 * calls: `onDetails` prices the cart with the details (its failure is shown on the form),
 * `onPay` answers the gateway page's address, which the whole window then opens.
 */
export function PrepaidCheckout({
  config,
  total,
  currency,
  summary,
  onBack,
  hint,
  onDetails,
  onPay,
}: {
  /** The details form's fields (a feature may require the ID number). */
  config: CheckoutConfig;
  total: number;
  /** The order's currency, once priced: only the methods taken in it are offered (issue 20). */
  currency?: string;
  summary: ReactNode;
  onBack: () => void;
  /** A word above the details form (why the ID number is asked). */
  hint?: string;
  onDetails: (info: CustomerInfo) => Promise<unknown>;
  onPay: (choice: PayChoice) => Promise<string>;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [details, setDetails] = useState<CustomerInfo | null>(null);
  const [serverError, setServerError] = useState<unknown>(null);
  const methods = useOfferedMethods(currency, METHODS);
  const [picked, setMethod] = useState<OfferedMethod>('card');
  const method = chosenAmong(picked, methods);
  const [numberOfPayments, setNumberOfPayments] = useState(1);
  const [paying, setPaying] = useState(false);
  const [payError, setPayError] = useState<unknown>(null);

  async function submitDetails(info: CustomerInfo) {
    setServerError(null);
    try {
      await onDetails(info);
      setDetails(info);
    } catch (e) {
      setServerError(e);
      throw e;
    }
  }

  async function pay() {
    setPaying(true);
    setPayError(null);
    try {
      window.location.assign(await onPay({ method, numberOfPayments }));
    } catch (e) {
      setPayError(e);
      setPaying(false);
    }
  }

  return (
    <div className="gift-checkout">
      <GiftSummary summary={summary} total={formatMoney(total, lang)} onBack={onBack} />
      {details === null ? (
        <section aria-labelledby="gift-details">
          <h2 id="gift-details" className="gift-checkout__heading">
            {t('checkout.step.detailsTitle')}
          </h2>
          {hint && <p className="gift-checkout__hint">{hint}</p>}
          <CustomerInfoForm
            config={config}
            onSubmit={submitDetails}
            serverError={serverError}
            submitLabel={t('gifts.toPayment')}
          />
        </section>
      ) : (
        <section aria-labelledby="gift-pay">
          <p>
            {t('checkout.step.detailsSaved', {
              name: `${details.firstName} ${details.lastName}`.trim(),
            })}{' '}
            <button type="button" className="button button--ghost" onClick={() => setDetails(null)}>
              {t('checkout.step.editDetails')}
            </button>
          </p>
          <h2 id="gift-pay" className="gift-checkout__heading">
            {t('checkout.step.paymentTitle')}
          </h2>
          <PaymentMethods
            value={method}
            onChange={(m) => {
              setMethod(m);
              setNumberOfPayments(1);
            }}
            numberOfPayments={numberOfPayments}
            onNumberOfPaymentsChange={setNumberOfPayments}
            methods={methods}
          />
          {payError !== null && (
            <p className="gift-checkout__error" role="alert">
              {errorMessage(t, payError)}
            </p>
          )}
          <button
            type="button"
            className="button button--primary gift-checkout__pay"
            disabled={paying}
            onClick={() => void pay()}
          >
            {t('gifts.pay', { amount: formatMoney(total, lang) })}
          </button>
        </section>
      )}
    </div>
  );
}
