// Back from a gateway that took the whole window (PayU, PayPal or a bank's page outside the
// frame): the address carries `?paymentId=`. The payment dialog opens in its "redirect returned"
// state, asks the payment's status, and on capture the order is committed and confirmed.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { PaymentDialog } from './PaymentDialog';
import { Notice } from '../../../../components/ui/Notice';
import { errorMessage } from '../../../../lib/apiErrors';
import { useCaptcha } from '../../../../lib/captcha';
import { useCommitOrder } from '../../api/payment';

export function ReturnedPayment({
  presentationId,
  paymentId,
  onPaid,
  onRestart,
}: {
  presentationId: number;
  paymentId: string;
  onPaid: (reservationIdentifier: string) => void;
  /** The payment failed or was cancelled: back to the seats as the server holds them. */
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  const captcha = useCaptcha();
  const commit = useCommitOrder(presentationId, captcha);
  const { mutate } = commit;
  const onCaptured = useCallback(() => {
    mutate(undefined, { onSuccess: (answer) => onPaid(answer.reservationIdentifier) });
  }, [mutate, onPaid]);
  const failure = commit.error ? errorMessage(t, commit.error) : null;
  // A new payment is started from the payment step, not here.
  const loadForm = useCallback(() => Promise.reject(new Error('no new payment here')), []);
  if (failure !== null) {
    return (
      <Notice title={t('checkout.payment.failed')} headingLevel={2} tone="error">
        <p>{failure}</p>
        <button type="button" className="button" onClick={onRestart}>
          {t('checkout.payment.startOver')}
        </button>
      </Notice>
    );
  }
  return (
    <PaymentDialog
      returnedPaymentId={paymentId}
      loadForm={loadForm}
      onCaptured={onCaptured}
      onRestart={() => onRestart()}
      onClose={onRestart}
    />
  );
}
