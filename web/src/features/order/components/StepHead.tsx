import { useTranslation } from 'react-i18next';
import { Countdown } from './Countdown';

/** A step's heading with the time its holds have left. */
export function StepHead({
  id,
  title,
  remaining,
}: {
  id: string;
  title: string;
  remaining: number | null;
}) {
  return (
    <div className="tickets-step__head">
      <h2 id={id} className="tickets-step__title">
        {title}
      </h2>
      {remaining !== null && remaining > 0 && <Countdown ms={remaining} />}
    </div>
  );
}

/** The step's time ran out: say so and offer a fresh start. */
export function TimeExpired({ onRestart }: { onRestart: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="tickets-step__alert">
      <p className="tickets-step__alert-text">{t('errors.timeExpired')}</p>
      <button type="button" className="button button--primary" onClick={onRestart}>
        {t('order.tickets.startOver')}
      </button>
    </div>
  );
}
