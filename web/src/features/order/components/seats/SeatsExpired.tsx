import { useTranslation } from 'react-i18next';
import { useReclaim } from '../../hooks/useClockExtension';
import { ExpiredActions } from '../StepHead';

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
      <ExpiredActions
        className="seat-step__actions"
        reclaim={{ available, reclaim, busy }}
        extendLabel={t('order.seats.extend')}
        againLabel={t('order.seats.refresh')}
        onAgain={onRefresh}
      />
      {message && <p className="seat-step__alert-text">{message}</p>}
    </>
  );
}
