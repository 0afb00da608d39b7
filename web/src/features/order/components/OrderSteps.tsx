import { useTranslation } from 'react-i18next';
import { STEPS, type Step } from '../model/steps';

/** The order's stepper: where the buyer is, what is done, what comes (spec 2's order steps). */
export function OrderSteps({ current, skip = [] }: { current: Step; skip?: readonly Step[] }) {
  const { t } = useTranslation();
  const steps = STEPS.filter((s) => !skip.includes(s));
  const at = steps.indexOf(current);
  return (
    <nav className="order-steps" aria-label={t('order.steps.label')}>
      <ol className="order-steps__list">
        {steps.map((step, index) => {
          const state = index < at ? 'done' : index === at ? 'current' : 'next';
          return (
            <li
              key={step}
              className={`order-steps__item order-steps__item--${state}`}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="order-steps__number" aria-hidden="true">
                {state === 'done' ? '✓' : index + 1}
              </span>
              <span className="order-steps__name">{t(`order.steps.${step}`)}</span>
              {state === 'done' && <span className="visually-hidden">{t('order.steps.done')}</span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
