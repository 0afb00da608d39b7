import { useTranslation } from 'react-i18next';
import { FlowSteps } from '../../components/checkout/FlowSteps';

export type VoucherStep = 'choose' | 'auth' | 'products' | 'details';

const STEPS: readonly VoucherStep[] = ['choose', 'auth', 'products', 'details'];

/** Where the buyer is in the vouchers flow (spec section 2's steps). */
export function VoucherSteps({ current }: { current: VoucherStep }) {
  const { t } = useTranslation();
  return (
    <FlowSteps
      steps={STEPS.map((s) => ({ key: s, label: t(`giftFlow.steps.${s}`) }))}
      current={current}
    />
  );
}
