import { useTranslation } from 'react-i18next';
import './OrderFlow.css';

/** Where the buyer is in a flow of named steps (spec section 2's steps), done ones marked. */
export function FlowSteps({
  steps,
  current,
}: {
  steps: readonly { key: string; label: string }[];
  current: string;
}) {
  const { t } = useTranslation();
  const at = steps.findIndex((s) => s.key === current);
  return (
    <ol className="gift-steps" aria-label={t('giftFlow.steps.label')}>
      {steps.map((s, i) => (
        <li
          key={s.key}
          className={`gift-steps__step${i < at ? ' gift-steps__step--done' : ''}`}
          aria-current={i === at ? 'step' : undefined}
        >
          {s.label}
        </li>
      ))}
    </ol>
  );
}
