import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../lib/api/client';
import { errorMessage } from '../../../../lib/apiErrors';
import type { Captcha } from '../../../../lib/captcha';
import { useCheckVoucher, type VoucherResponse } from '../../api/payment';

/** A voucher's balance, checked, then applied to the order by re-posting the cart. */
export function VoucherBox({
  presentationId,
  captcha,
  applied,
  repricing,
  money,
  onApply,
  onRemove,
}: {
  presentationId: number;
  captcha: Captcha;
  applied: readonly string[];
  /** The cart is being priced again with a voucher more or less. */
  repricing: boolean;
  money: (agorot: number) => string;
  onApply: (reference: string) => Promise<void>;
  onRemove: (reference: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const [reference, setReference] = useState('');
  const [found, setFound] = useState<VoucherResponse['payment'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const checkVoucher = useCheckVoucher(presentationId, captcha);
  const busy = checkVoucher.isPending || repricing;

  const explain = (e: unknown) =>
    setError(
      e instanceof ApiError && e.code === 'voucherBalance'
        ? t('validation.voucherNoBalance')
        : errorMessage(t, e),
    );

  async function run(action: () => Promise<void>) {
    setError(null);
    try {
      await action();
    } catch (e) {
      explain(e);
    }
  }

  function check(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = reference.trim();
    if (!code) return;
    setFound(null);
    setError(null);
    checkVoucher.mutate(code, {
      onSuccess: (answer) => {
        if (answer.payment.balance <= 0 || (answer.payment.amount ?? 1) <= 0) {
          setError(t('validation.voucherNoBalance'));
          return;
        }
        setFound(answer.payment);
      },
      onError: explain,
    });
  }

  return (
    <section className="payment-step__section voucher-box" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className="payment-step__heading">
        {t('checkout.voucher.title')}
      </h2>
      <form className="voucher-box__form" onSubmit={check} noValidate>
        <label htmlFor={inputId}>{t('checkout.voucher.label')}</label>
        <div className="voucher-box__row">
          <input
            id={inputId}
            className="checkout-field__input"
            dir="ltr"
            autoComplete="off"
            value={reference}
            onChange={(e) => {
              setReference(e.target.value);
              setFound(null);
            }}
          />
          <button type="submit" className="button button--ghost" disabled={busy}>
            {t('checkout.voucher.check')}
          </button>
        </div>
      </form>
      {found && !applied.includes(found.reference) && (
        <div className="voucher-box__found">
          <p>
            {t('checkout.voucher.balance', {
              balance: money(found.balance),
              amount: money(found.amount ?? found.balance),
            })}
          </p>
          <button
            type="button"
            className="button button--primary"
            disabled={busy}
            onClick={() =>
              void run(async () => {
                await onApply(found.reference);
                setFound(null);
                setReference('');
              })
            }
          >
            {t('checkout.voucher.apply')}
          </button>
        </div>
      )}
      {applied.length > 0 && (
        <ul className="voucher-box__applied">
          {applied.map((r) => (
            <li key={r}>
              <span dir="ltr">{r}</span>
              <button
                type="button"
                className="button button--ghost"
                disabled={busy}
                onClick={() => void run(() => onRemove(r))}
              >
                {t('checkout.voucher.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="voucher-box__error" role="alert">
        {error}
      </p>
    </section>
  );
}
