import { useId } from 'react';

/** A text field of a ticket line (a reference, an ID number), its hint or error below. */
export function LineField({
  label,
  hint,
  value,
  error,
  inputMode,
  maxLength,
  onChange,
}: {
  label: string;
  hint?: string;
  value: string;
  error: string | null;
  inputMode?: 'numeric';
  maxLength?: number;
  onChange: (value: string) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  return (
    <div className="tickets-step__field">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        type="text"
        dir="ltr"
        value={value}
        inputMode={inputMode}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={hint || error ? hintId : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {(hint || error) && (
        <p id={hintId} className={error ? 'tickets-step__field-error' : 'tickets-step__muted'}>
          {error ?? hint}
        </p>
      )}
    </div>
  );
}
