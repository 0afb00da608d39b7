import { useTranslation } from 'react-i18next';
import { Loading } from '../ui/Loading';
import { Notice } from '../ui/Notice';
import type { PaymentReturn } from '../../lib/paymentReturn';
import { ErrorNotice } from '../ui/ErrorNotice';

/** What a page shows while it is back from the gateway's page (lib/paymentReturn's states). */
export function PaymentReturnNotice({
  state,
  path,
}: {
  state: Exclude<PaymentReturn, { kind: 'none' }>;
  path: string;
}) {
  const { t } = useTranslation();
  if (state.kind === 'notPaid') {
    return (
      <Notice
        title={t('gifts.notPaid')}
        tone="error"
        action={{ to: path, label: t('gifts.tryAgain') }}
      >
        <p>{t('gifts.notPaidBody')}</p>
      </Notice>
    );
  }
  if (state.kind === 'failed') {
    return <ErrorNotice title={t('gifts.commitFailed')} error={state.error} />;
  }
  return <Loading />;
}
