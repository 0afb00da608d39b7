import { useTranslation } from 'react-i18next';

/** After the time ran out and the seats were taken back: the ones another buyer took meanwhile. */
export function LostSeats({ seats }: { seats: string[] }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="tickets-step__alert lost-seats">
      <p className="tickets-step__alert-text">
        {t('order.clock.seatsLost', { count: seats.length, seats: seats.join(', ') })}
      </p>
    </div>
  );
}
