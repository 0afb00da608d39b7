import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/apiErrors';
import { formatMoney } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import { useCancel, useCancelPreview, type Reservation } from '../api/cancel';
import { linesToSend, ticketChoices } from '../model/tickets';

type Step = 'choose' | 'review' | 'done';

/**
 * The cancel reservation dialog (spec section 2): choose the tickets (all of them at first),
 * see the cancellation service charge and the refund, with the warning that the service fee is
 * not refunded, confirm, and see the result (a refund the provider has not confirmed yet is
 * shown as pending). The figures come from the server's dry run, never from this code.
 */
export function CancelReservationDialog({
  reservation,
  onClose,
}: {
  reservation: Reservation;
  /** `changed`: a cancellation was made. */
  onClose: (changed: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const titleId = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const id = reservation.ReservationIdentifier;
  const choices = useMemo(
    () => ticketChoices(reservation.seats).filter((c) => !c.cancelled),
    [reservation.seats],
  );
  const [chosen, setChosen] = useState<ReadonlySet<number>>(
    () => new Set(choices.map((c) => c.line)),
  );
  const [step, setStep] = useState<Step>('choose');
  // Where the refund goes: back to the card, or as voucher credit (offered to a logged-in owner).
  const creditOffered = reservation.cancellationTerms.creditOffered;
  const [credit, setCredit] = useState(false);
  const refundToId = useId();
  const preview = useCancelPreview(id);
  const cancel = useCancel(id);
  const money = (agorot: number) => formatMoney(agorot, lang, reservation.currency);
  const lines = linesToSend(choices, chosen);
  const done = cancel.data?.cancellation;
  const figures = done ?? preview.data?.cancellation;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || dialog.open) return;
    // A modal dialog (focus kept inside, Escape closes); where a browser lacks it, an open one.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
  }, []);

  function toggle(line: number, on: boolean) {
    const next = new Set(chosen);
    if (on) next.add(line);
    else next.delete(line);
    setChosen(next);
  }

  function review() {
    preview.mutate({ lines, credit }, { onSuccess: () => setStep('review') });
  }

  function confirm() {
    cancel.mutate({ lines, credit }, { onSuccess: () => setStep('done') });
  }

  const error = preview.isError
    ? errorMessage(t, preview.error)
    : cancel.isError
      ? errorMessage(t, cancel.error)
      : null;

  return (
    <dialog
      ref={ref}
      className="cancel-dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose(step === 'done');
      }}
    >
      <h2 id={titleId} className="cancel-dialog__title">
        {t(step === 'done' ? 'cancel.doneTitle' : 'cancel.dialogTitle')}
      </h2>

      {step === 'choose' && (
        <fieldset className="cancel-dialog__choices">
          <legend>{t('cancel.choose')}</legend>
          {choices.map((c) => {
            const seat = c.seats[0];
            const price = c.seats.reduce((sum, s) => sum + s.price + s.serviceCharge, 0);
            return (
              <label key={c.line} className="cancel-dialog__choice">
                <input
                  type="checkbox"
                  checked={chosen.has(c.line)}
                  onChange={(e) => toggle(c.line, e.target.checked)}
                />
                <span>
                  {t('cancel.seatLine', { row: seat.row, seat: seat.seat })}
                  {c.seats.length > 1 && ` (${t('cancel.seats', { count: c.seats.length })})`}
                  {' · '}
                  {localizedName(lang, seat.ticketType, seat.ticketTypeEn)}
                </span>
                <span className="cancel-dialog__price">{money(price)}</span>
              </label>
            );
          })}
          <p className="cancel-dialog__hint">
            {lines === null
              ? t('cancel.wholeOrder')
              : t('cancel.someTickets', { count: lines.length })}
          </p>
        </fieldset>
      )}

      {step === 'choose' && creditOffered && (
        <fieldset className="cancel-dialog__refund-to">
          <legend id={refundToId}>{t('cancelCredit.refundTo')}</legend>
          <label className="cancel-dialog__choice">
            <input
              type="radio"
              name={refundToId}
              checked={!credit}
              onChange={() => setCredit(false)}
            />
            <span>{t('cancelCredit.toCard')}</span>
          </label>
          <label className="cancel-dialog__choice">
            <input
              type="radio"
              name={refundToId}
              checked={credit}
              onChange={() => setCredit(true)}
            />
            <span>{t('cancelCredit.toCredit')}</span>
          </label>
          {credit && <p className="cancel-dialog__hint">{t('cancelCredit.creditHint')}</p>}
        </fieldset>
      )}

      {(step === 'review' || step === 'done') && figures && (
        <dl className="cancel-dialog__figures">
          <div>
            <dt>{t('cancel.value')}</dt>
            <dd>{money(figures.value)}</dd>
          </div>
          <div>
            <dt>{t('cancel.fee')}</dt>
            <dd>{money(figures.fee)}</dd>
          </div>
          <div className="cancel-dialog__refund">
            <dt>{t('cancel.refund')}</dt>
            <dd>{money(figures.refund)}</dd>
          </div>
          {figures.credit && (
            <div>
              <dt>{t('cancelCredit.asCredit')}</dt>
              <dd>{money(figures.credit.amount)}</dd>
            </div>
          )}
        </dl>
      )}

      {step === 'review' && (
        <p className="cancel-dialog__warning" role="note">
          {t('cancel.feeWarning', { fee: money(figures?.fee ?? 0) })}
        </p>
      )}

      {step === 'done' && done && (
        <div className="cancel-dialog__result" role="status">
          {done.credit ? (
            <>
              <p>{t('cancelCredit.done', { credit: money(done.credit.amount) })}</p>
              <p>
                {t('cancelCredit.reference')}{' '}
                <strong className="cancel-dialog__reference" dir="ltr">
                  {done.credit.reference}
                </strong>
              </p>
              <p className="cancel-dialog__hint">{t('cancelCredit.howToUse')}</p>
            </>
          ) : (
            <p>
              {done.refund === 0
                ? t('cancel.doneNoRefund')
                : t(done.refundPending ? 'cancel.donePending' : 'cancel.doneRefunded', {
                    refund: money(done.refund),
                  })}
            </p>
          )}
        </div>
      )}

      {error && (
        <p className="cancel-dialog__error" role="alert">
          {error}
        </p>
      )}

      <div className="cancel-dialog__actions">
        {step === 'choose' && (
          <button
            type="button"
            className="button button--primary"
            disabled={chosen.size === 0 || preview.isPending}
            onClick={review}
          >
            {t('cancel.continue')}
          </button>
        )}
        {step === 'review' && (
          <>
            <button
              type="button"
              className="button button--primary"
              disabled={cancel.isPending}
              onClick={confirm}
            >
              {t('cancel.confirm')}
            </button>
            <button
              type="button"
              className="button button--ghost"
              disabled={cancel.isPending}
              onClick={() => {
                cancel.reset();
                setStep('choose');
              }}
            >
              {t('cancel.back')}
            </button>
          </>
        )}
        <button
          type="button"
          className={`button ${step === 'done' ? 'button--primary' : 'button--ghost'}`}
          disabled={cancel.isPending}
          onClick={() => onClose(step === 'done')}
        >
          {t(step === 'done' ? 'cancel.close' : 'cancel.keep')}
        </button>
      </div>
    </dialog>
  );
}
