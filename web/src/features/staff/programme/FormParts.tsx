import { useTranslation } from 'react-i18next';

/** A screening's local date and time, side by side (Asia/Jerusalem; the server stores UTC). */
export function DateTimeFields({
  date,
  time,
  onDate,
  onTime,
}: {
  date: string;
  time: string;
  onDate: (date: string) => void;
  onTime: (time: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="programme-form__pair">
      <label>
        {t('staffProgramme.field.date')}
        <input type="date" required value={date} onChange={(e) => onDate(e.target.value)} />
      </label>
      <label>
        {t('staffProgramme.field.time')}
        <input type="time" required value={time} onChange={(e) => onTime(e.target.value)} />
      </label>
    </div>
  );
}

/**
 * A dialog step's two buttons: the step's own action (a form's submit when `onPrimary` is
 * absent) and a quiet way back; above them, what went wrong (`failure`), if anything.
 */
export function StepActions({
  label,
  onPrimary,
  disabled = false,
  danger = false,
  backLabel,
  onBack,
  failure = null,
}: {
  label: string;
  onPrimary?: () => void;
  disabled?: boolean;
  danger?: boolean;
  backLabel: string;
  onBack: () => void;
  failure?: string | null;
}) {
  return (
    <>
      {failure && (
        <p className="programme-error" role="alert">
          {failure}
        </p>
      )}
      <div className="programme-dialog__actions">
        <button
          type={onPrimary ? 'button' : 'submit'}
          className={danger ? 'staff-button staff-button--danger' : 'staff-button'}
          disabled={disabled}
          onClick={onPrimary}
        >
          {label}
        </button>
        <button type="button" className="staff-button staff-button--quiet" onClick={onBack}>
          {backLabel}
        </button>
      </div>
    </>
  );
}
