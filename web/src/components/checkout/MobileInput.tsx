// A field for a mobile number: typed as a phone number, left to right, filled in by the browser
// from the buyer's own, and marked invalid while its number is refused.
export function MobileInput({
  id,
  className,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  id: string;
  className?: string;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  /** The id of what is said about it (a hint, a status). */
  describedBy?: string;
}) {
  return (
    <input
      id={id}
      className={className}
      type="tel"
      inputMode="tel"
      dir="ltr"
      autoComplete="tel"
      value={value}
      aria-invalid={invalid ? true : undefined}
      aria-describedby={describedBy}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
