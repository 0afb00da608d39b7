import { useContext, useEffect, useLayoutEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useReclaim } from '../hooks/useClockExtension';
import { Countdown } from './Countdown';
import { StepFrameContext } from '../hooks/stepFrame';

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

/**
 * The step's time ran out: say so, offer the step's one extension (the seats still free are
 * locked again) when it was not spent, and a fresh start. While it is up the step is locked
 * (StepFrame): the tickets, products and details can no longer be changed.
 */
export function TimeExpired({ onRestart }: { onRestart: () => void }) {
  const { t } = useTranslation();
  const frame = useContext(StepFrameContext);
  const { available, reclaim, busy, message } = useReclaim();
  useLayoutEffect(() => {
    frame?.lock();
    return () => frame?.unlock();
  }, [frame]);
  // A buyer deep in a long step (the details form on a phone) sees why it stopped.
  const ref = useRef<HTMLDivElement>(null);
  const placed = Boolean(!frame || frame.slot);
  useEffect(() => {
    if (placed) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [placed]);
  // Inside a frame, the box waits for its place above the locked step.
  if (frame && !frame.slot) return null;
  const box = (
    <div ref={ref} role="alert" className="tickets-step__alert time-expired">
      <p className="tickets-step__alert-text">{t('errors.timeExpired')}</p>
      <p className="tickets-step__muted">
        {available ? t('order.clock.expiredCanExtend') : t('order.clock.expiredNoExtension')}
      </p>
      <ExpiredActions
        className="time-expired__actions"
        reclaim={{ available, reclaim, busy }}
        extendLabel={t('order.clock.extend')}
        againLabel={t('order.tickets.startOver')}
        onAgain={onRestart}
      />
      {message && <p className="tickets-step__alert-text">{message}</p>}
    </div>
  );
  return frame?.slot ? createPortal(box, frame.slot) : box;
}

/**
 * The actions at zero: take back the seats still free (the step's one extension, when it was not
 * spent), and start again, which is the main action once there is no extension left.
 */
export function ExpiredActions({
  className,
  reclaim: { available, reclaim, busy },
  extendLabel,
  againLabel,
  onAgain,
}: {
  className: string;
  reclaim: Pick<ReturnType<typeof useReclaim>, 'available' | 'reclaim' | 'busy'>;
  extendLabel: string;
  againLabel: string;
  onAgain: () => void;
}) {
  return (
    <p className={className}>
      {available && (
        <button
          type="button"
          className="button button--primary"
          disabled={busy}
          onClick={() => void reclaim()}
        >
          {extendLabel}
        </button>
      )}
      <button
        type="button"
        className={available ? 'button button--ghost' : 'button button--primary'}
        disabled={busy}
        onClick={onAgain}
      >
        {againLabel}
      </button>
    </p>
  );
}
