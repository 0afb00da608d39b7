import { useTranslation } from 'react-i18next';
import { useReclaim } from '../../hooks/useClockExtension';

/**
 * The seat step's time ran out: the server let the holds go, so "more time" cannot extend them
 * (POST /seats/extend is refused once the checkout is over). It locks again the seats still free
 * (the step's one extension, as on the later steps) and names the ones taken meanwhile; or the
 * buyer refreshes the map and starts the choice again. Mounted only at zero, so the seats it
 * takes back are the ones held when the time ran out.
 */
export function SeatsExpired({ onRefresh }: { onRefresh: () => void }) {
  const { t } = useTranslation();
  const { available, reclaim, busy, message } = useReclaim();
  return (
    <>
      <p className="seat-step__alert-text">{t('errors.timeExpired')}</p>
      <p className="seat-step__actions">
        {available && (
          <button
            type="button"
            className="button button--primary"
            disabled={busy}
            onClick={() => void reclaim()}
          >
            {t('order.seats.extend')}
          </button>
        )}
        <button
          type="button"
          className={available ? 'button button--ghost' : 'button button--primary'}
          disabled={busy}
          onClick={onRefresh}
        >
          {t('order.seats.refresh')}
        </button>
      </p>
      {message && <p className="seat-step__alert-text">{message}</p>}
    </>
  );
}
