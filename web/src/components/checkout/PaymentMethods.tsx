import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ALL_METHODS, takesInstallments, type OfferedMethod } from './methods';
import './PaymentMethods.css';

export interface PaymentMethodsProps {
  value: OfferedMethod;
  onChange: (method: OfferedMethod) => void;
  numberOfPayments: number;
  onNumberOfPaymentsChange: (n: number) => void;
  /** Which methods to offer; the saved card only for a logged-in customer who has one. */
  methods?: readonly OfferedMethod[];
  /** The most installments allowed (the gateway takes 1 to 12). */
  maxPayments?: number;
}

/** The payment method buttons and, for cards, the number of payments. */
export function PaymentMethods({
  value,
  onChange,
  numberOfPayments,
  onNumberOfPaymentsChange,
  methods = ALL_METHODS,
  maxPayments = 12,
}: PaymentMethodsProps) {
  const { t } = useTranslation();
  const selectId = useId();
  const legendId = useId();
  const max = Math.max(1, Math.min(12, maxPayments));

  return (
    <div className="payment-methods">
      <div className="payment-methods__buttons" role="group" aria-labelledby={legendId}>
        <p className="payment-methods__legend" id={legendId}>
          {t('checkout.methods.legend')}
        </p>
        {methods.map((method) => (
          <button
            key={method}
            type="button"
            className="payment-methods__button"
            aria-pressed={value === method}
            onClick={() => onChange(method)}
          >
            {t(`checkout.methods.${method}`)}
          </button>
        ))}
      </div>
      {takesInstallments(value) && max > 1 && (
        <div className="payment-methods__installments">
          <label htmlFor={selectId}>{t('checkout.methods.numberOfPayments')}</label>
          <select
            id={selectId}
            value={numberOfPayments}
            onChange={(e) => onNumberOfPaymentsChange(Number(e.target.value))}
          >
            {Array.from({ length: max }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}
