import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** The member number that lists member-only tickets. */
export function MemberLookup({
  value,
  active,
  pending,
  error,
  onChange,
  onApply,
  onClear,
}: {
  value: string;
  active: string;
  pending: boolean;
  error: string | null;
  onChange: (value: string) => void;
  onApply: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  return (
    <form
      className="tickets-step__panel tickets-step__member"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim() !== '') onApply();
      }}
    >
      <label htmlFor={inputId} className="tickets-step__panel-title">
        {t('order.tickets.memberNumber')}
      </label>
      <div className="tickets-step__inline">
        <input
          id={inputId}
          type="text"
          dir="ltr"
          inputMode="numeric"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
        <button type="submit" className="button button--ghost" disabled={pending}>
          {t('order.tickets.memberApply')}
        </button>
        {active !== '' && (
          <button type="button" className="button button--ghost" onClick={onClear}>
            {t('order.tickets.memberClear')}
          </button>
        )}
      </div>
      {error ? (
        <p className="tickets-step__field-error" role="alert">
          {error}
        </p>
      ) : active !== '' && !pending ? (
        <p className="tickets-step__muted" role="status">
          {t('order.tickets.memberShown', { member: active })}
        </p>
      ) : null}
    </form>
  );
}
