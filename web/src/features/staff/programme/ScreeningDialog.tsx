// One screening of the grid: what it is and how it sells (its ticket group and channels, each
// saved at once), and the manager's two changes to it, each confirmed before it is made: move it
// (another time and/or hall; its buyers keep their seats — onto another seat plan, the seats of
// the same names — and are told) and cancel it (every paid seat refunded in full; buyers told).
// The result says what the server did.
import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api/client';
import { errorMessage } from '../../../lib/apiErrors';
import { cinemaDate, formatDateTime, formatLongDate, formatMoney } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import {
  cancelScreening,
  moveScreening,
  type CancelScreeningResponse,
  type Complex,
  type MoveScreeningResponse,
  type Screening,
  type TicketGroupChoice,
} from './api';
import { History } from './History';
import { localTime, timeRange } from './model';
import { DateTimeFields, StepActions } from './FormParts';
import { Modal } from './Modal';
import { ScreeningSettings } from './ScreeningSettings';
import { NameOptions } from '../NameOptions';

type Step = 'view' | 'move' | 'confirmMove' | 'confirmCancel';

export function ScreeningDialog({
  screening,
  complex,
  ticketGroups,
  onClose,
}: {
  screening: Screening;
  complex: Complex;
  ticketGroups: readonly TicketGroupChoice[];
  /** `changed`: the screening was moved, cancelled or its settings changed. */
  onClose: (changed: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  // The screening as the last change answered it (its settings are saved one by one).
  const [s, setScreening] = useState(screening);
  const [settingsChanged, setSettingsChanged] = useState(false);
  const [step, setStep] = useState<Step>('view');
  const [venueId, setVenueId] = useState(s.venueId);
  const [date, setDate] = useState(cinemaDate(s.startsAt));
  const [time, setTime] = useState(localTime(s.startsAt));
  const move = useMutation({
    mutationFn: () =>
      moveScreening(s.id, { venueId: venueId === s.venueId ? undefined : venueId, date, time }),
  });
  const cancel = useMutation({ mutationFn: () => cancelScreening(s.id) });
  const hallName = (id: number) => {
    const h = complex.halls.find((x) => x.id === id);
    return h ? localizedName(lang, h.name, h.nameEn) : String(id);
  };
  const film = localizedName(lang, s.feature.name, s.feature.nameEn);
  const cancelled = s.cancelledAt != null;
  const changed = move.isSuccess || cancel.isSuccess;
  const closeChanged = changed || settingsChanged;
  const error = move.isError
    ? [errorMessage(t, move.error), missingSeats(move.error, t)].filter(Boolean).join(' ')
    : cancel.isError
      ? errorMessage(t, cancel.error)
      : null;
  const askMove = (e: FormEvent) => {
    e.preventDefault();
    setStep('confirmMove');
  };

  return (
    <Modal title={film} onClose={() => onClose(closeChanged)}>
      <dl className="programme-facts">
        <div>
          <dt>{t('staffProgramme.field.hall')}</dt>
          <dd>{hallName(s.venueId)}</dd>
        </div>
        <div>
          <dt>{t('staffProgramme.field.when')}</dt>
          <dd>
            {formatLongDate(cinemaDate(s.startsAt), lang)} · <bdi>{timeRange(s, lang)}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('staffProgramme.field.saleWindow')}</dt>
          <dd>
            <bdi>
              {formatDateTime(s.saleStartsAt, lang)} – {formatDateTime(s.saleEndsAt, lang)}
            </bdi>
          </dd>
        </div>
        <div>
          <dt>{t('staffProgramme.field.seats')}</dt>
          <dd>{t('staffProgramme.soldHeld', { sold: s.sold, held: s.held })}</dd>
        </div>
        {cancelled && (
          <div>
            <dt>{t('staffProgramme.field.status')}</dt>
            <dd>{t('staffProgramme.cancelled')}</dd>
          </div>
        )}
      </dl>

      {!cancelled && !changed && step === 'view' && (
        <ScreeningSettings
          screening={s}
          hall={complex.halls.find((h) => h.id === s.venueId)}
          ticketGroups={ticketGroups}
          onChanged={(next) => {
            setScreening(next);
            setSettingsChanged(true);
          }}
        />
      )}

      <History id={s.id} />

      {move.data && <MovedResult done={move.data} />}
      {cancel.data && <CancelledResult done={cancel.data} />}

      {step === 'move' && !changed && (
        <form className="programme-form" onSubmit={askMove}>
          <label>
            {t('staffProgramme.field.hall')}
            <select value={venueId} onChange={(e) => setVenueId(Number(e.target.value))}>
              <NameOptions items={complex.halls.filter((h) => h.seatplanId != null)} />
            </select>
          </label>
          <DateTimeFields date={date} time={time} onDate={setDate} onTime={setTime} />
          <StepActions
            label={t('staffProgramme.move.next')}
            backLabel={t('staffProgramme.back')}
            onBack={() => setStep('view')}
          />
        </form>
      )}

      {step === 'confirmMove' && !changed && (
        <div
          className="programme-confirm"
          role="group"
          aria-label={t('staffProgramme.move.confirmTitle')}
        >
          <p>
            {t('staffProgramme.move.confirm', {
              hall: hallName(venueId),
              date: formatLongDate(date, lang),
              time,
            })}
          </p>
          {s.sold + s.held > 0 && <p>{t('staffProgramme.move.buyersKeep')}</p>}
          {s.sold + s.held > 0 &&
            complex.halls.find((h) => h.id === venueId)?.seatplanId !== s.seatplanId && (
              <p>{t('staffProgramme.move.otherPlan')}</p>
            )}
          <StepActions
            label={t('staffProgramme.move.submit')}
            onPrimary={() => move.mutate()}
            disabled={move.isPending}
            backLabel={t('staffProgramme.back')}
            onBack={() => setStep('move')}
          />
        </div>
      )}

      {step === 'confirmCancel' && !changed && (
        <div
          className="programme-confirm programme-confirm--danger"
          role="group"
          aria-label={t('staffProgramme.cancel.confirmTitle')}
        >
          <p>{t('staffProgramme.cancel.confirm', { film })}</p>
          <p>{t('staffProgramme.cancel.refunds', { count: s.sold })}</p>
          <StepActions
            label={t('staffProgramme.cancel.submit')}
            onPrimary={() => cancel.mutate()}
            disabled={cancel.isPending}
            danger
            backLabel={t('staffProgramme.back')}
            onBack={() => setStep('view')}
          />
        </div>
      )}

      {error && (
        <p className="programme-error" role="alert">
          {error}
        </p>
      )}

      <div className="programme-dialog__actions">
        {step === 'view' && !cancelled && !changed && (
          <>
            <button type="button" className="staff-button" onClick={() => setStep('move')}>
              {t('staffProgramme.move.open')}
            </button>
            <button
              type="button"
              className="staff-button staff-button--quiet staff-button--danger-text"
              onClick={() => setStep('confirmCancel')}
            >
              {t('staffProgramme.cancel.open')}
            </button>
          </>
        )}
        <button
          type="button"
          className="staff-button staff-button--quiet"
          onClick={() => onClose(closeChanged)}
        >
          {t('staffProgramme.close')}
        </button>
      </div>
    </Modal>
  );
}

function MovedResult({ done }: { done: MoveScreeningResponse }) {
  const { t, i18n } = useTranslation();
  return (
    <p className="programme-done" role="status">
      {t('staffProgramme.move.done', {
        when: formatDateTime(done.screening.startsAt, i18n.language),
        count: done.ordersTold,
      })}
      {done.seatsMoved > 0 && (
        <> {t('staffProgramme.move.seatsMoved', { count: done.seatsMoved })}</>
      )}
    </p>
  );
}

/** The seats a move onto another plan could not take with it ("row 7 seat 12, …"), if any. */
function missingSeats(error: unknown, t: TFunction) {
  if (!(error instanceof ApiError) || error.code !== 'seatPlanDiffers') return null;
  const missing = error.params?.missing;
  if (!Array.isArray(missing) || missing.length === 0) return null;
  const seats = (missing as { row?: string; seat?: string }[])
    .map((m) => t('staffProgramme.move.seat', { row: m.row ?? '', seat: m.seat ?? '' }))
    .join(', ');
  return t('staffProgramme.move.missing', { seats });
}

function CancelledResult({ done }: { done: CancelScreeningResponse }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="programme-done" role="status">
      <p>
        {t('staffProgramme.cancel.done', {
          count: done.ordersRefunded,
          amount: formatMoney(done.refunded, i18n.language),
        })}
      </p>
      {done.holdsReleased > 0 && (
        <p>{t('staffProgramme.cancel.holds', { count: done.holdsReleased })}</p>
      )}
      {done.leftForBoxOffice.length > 0 && (
        <p>{t('staffProgramme.cancel.boxOffice', { list: done.leftForBoxOffice.join(', ') })}</p>
      )}
    </div>
  );
}
