import { useTranslation } from 'react-i18next';
import { Notice } from '../../components/ui/Notice';
import { LangLink } from '../../components/ui/LangLink';

const STEPS = ['seats', 'tickets', 'products', 'payment', 'confirmation'] as const;
type Step = (typeof STEPS)[number];
/** The steps this app can do today; the others are shown as coming. */
const BUILT: readonly Step[] = ['seats'];

export function OrderSteps({ current }: { current: Step }) {
  const { t } = useTranslation();
  return (
    <nav className="order-steps" aria-label={t('order.steps.label')}>
      <ol className="order-steps__list">
        {STEPS.map((step, index) => {
          const built = BUILT.includes(step);
          return (
            <li
              key={step}
              className={`order-steps__item${step === current ? ' order-steps__item--current' : ''}${built ? '' : ' order-steps__item--coming'}`}
              aria-current={step === current ? 'step' : undefined}
            >
              <span className="order-steps__number" aria-hidden="true">
                {index + 1}
              </span>
              <span className="order-steps__name">{t(`order.steps.${step}`)}</span>
              {!built && <span className="order-steps__coming">{t('order.steps.coming')}</span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** Plainly says the order stops after the seats for now, with a Continue that cannot be used. */
export function LaterSteps() {
  const { t } = useTranslation();
  return (
    <Notice title={t('order.laterSteps.title')} headingLevel={2}>
      <p>{t('order.laterSteps.detail')}</p>
      <p className="order-later__actions">
        <button type="button" className="button button--primary" disabled>
          {t('order.laterSteps.continue')}
        </button>
        <LangLink className="button button--ghost" to="/">
          {t('notAvailable.backToWhatsOn')}
        </LangLink>
      </p>
    </Notice>
  );
}
