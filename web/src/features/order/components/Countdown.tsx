import { useTranslation } from 'react-i18next';
import { Toast } from '../../../components/ui/Toast';
import { useClockExtension } from '../hooks/useClockExtension';
import { formatClock } from '../../../lib/countdownClock';
import './Countdown.css';

/** When the countdown warns that the time is nearly out (and offers the step's extension). */
export const WARNING_MS = 60_000;

/**
 * "Time left: 9:41". Screen readers hear it only at each whole minute, and the warning of the
 * last minute once; in that minute the step's one extension is offered.
 */
export function Countdown({ ms }: { ms: number }) {
  const { t } = useTranslation();
  const extension = useClockExtension();
  const warning = ms <= WARNING_MS;
  const offer = warning && extension.available;
  return (
    <div className={warning ? 'countdown countdown--warning' : 'countdown'}>
      <p className="seat-step__timer">
        <span role="timer">{t('order.timeLeft', { time: formatClock(ms) })}</span>
      </p>
      {/* Its words change once a minute, and once for the warning: never every second. */}
      <span className="visually-hidden countdown__live" aria-live="polite">
        {warning
          ? `${t('order.clock.warning')} ${offer ? t('order.clock.warningCanExtend') : ''}`.trim()
          : t('order.minutesLeft', { count: Math.ceil(ms / 60_000) })}
      </span>
      {warning && (
        <div className="countdown__warning">
          <p className="countdown__warning-text" aria-hidden="true">
            {t('order.clock.warning')}
          </p>
          {offer && (
            <button
              type="button"
              className="button button--primary countdown__extend"
              disabled={extension.busy}
              onClick={extension.extend}
            >
              {t('order.clock.extend')}
            </button>
          )}
          {extension.message && (
            <p className="countdown__warning-text" role="alert">
              {extension.message}
            </p>
          )}
        </div>
      )}
      <Toast message={extension.given} onDone={extension.dismiss} />
    </div>
  );
}
