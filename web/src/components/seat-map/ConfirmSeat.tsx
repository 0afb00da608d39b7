import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import './ConfirmSeat.css';

/**
 * The question a wheelchair space or a limited-view seat asks before it is held (the server
 * answers `seatConfirmationRequired` to a lock without the buyer's yes): the seat named, yes
 * focused, Escape for no.
 */
export function ConfirmSeat({
  text,
  seatName,
  onConfirm,
  onCancel,
}: {
  text: string;
  seatName: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmButton.current?.focus(), []);
  return (
    <div
      className="seat-confirm"
      role="alertdialog"
      aria-labelledby="seat-confirm-text"
      aria-describedby="seat-confirm-seat"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <p id="seat-confirm-text" className="seat-confirm__text">
        {text}
      </p>
      <p id="seat-confirm-seat" className="seat-confirm__seat">
        {seatName}
      </p>
      <p className="seat-confirm__actions">
        <button
          ref={confirmButton}
          type="button"
          className="button button--primary"
          onClick={onConfirm}
        >
          {t('order.seats.confirmYes')}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          {t('order.seats.confirmNo')}
        </button>
      </p>
    </div>
  );
}
