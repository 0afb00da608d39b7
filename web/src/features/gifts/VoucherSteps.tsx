import { useTranslation } from 'react-i18next';
import { FlowSteps } from '../../components/checkout/FlowSteps';

export type VoucherStep = 'choose' | 'auth' | 'waiver' | 'products' | 'details';

const STEPS: readonly VoucherStep[] = ['choose', 'auth', 'waiver', 'products', 'details'];

/**
 * Where the buyer is in the vouchers flow (spec section 2's steps); the waiver step only when a
 * chosen voucher asks for one (decision 0041).
 */
export function VoucherSteps({
  current,
  withWaiver = false,
}: {
  current: VoucherStep;
  withWaiver?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <FlowSteps
      steps={STEPS.filter((s) => withWaiver || s !== 'waiver').map((s) => ({
        key: s,
        label: s === 'waiver' ? t('waiver.step') : t(`giftFlow.steps.${s}`),
      }))}
      current={current}
    />
  );
}
