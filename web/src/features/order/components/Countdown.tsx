import { useTranslation } from 'react-i18next';
import { formatClock } from '../model/countdownClock';

/** "Time left: 9:41"; screen readers hear it only at each whole minute. */
export function Countdown({ ms }: { ms: number }) {
  const { t } = useTranslation();
  return (
    <p className="seat-step__timer">
      <span role="timer">{t('order.timeLeft', { time: formatClock(ms) })}</span>
      <span className="visually-hidden" aria-live="polite">
        {t('order.minutesLeft', { count: Math.ceil(ms / 60_000) })}
      </span>
    </p>
  );
}
