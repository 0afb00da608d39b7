import './QuantityStepper.css';

/**
 * − count +, as every "how many" of the order draws it (kinds of ticket, products): 44 px
 * buttons named for what they add or take away, and the count between them.
 */
export function QuantityStepper({
  value,
  lessLabel,
  moreLabel,
  countLabel,
  canLess,
  canMore,
  onLess,
  onMore,
  label,
  announce = false,
}: {
  value: number;
  lessLabel: string;
  moreLabel: string;
  /** Names the count when the row around it does not (a kind of ticket). */
  countLabel?: string;
  canLess: boolean;
  canMore: boolean;
  onLess: () => void;
  onMore: () => void;
  /** Names the stepper as a group; without it, a plain span in the row. */
  label?: string;
  /** Says the new count aloud (when nothing else near it does). */
  announce?: boolean;
}) {
  return (
    <span
      className="quantity-stepper"
      role={label === undefined ? undefined : 'group'}
      aria-label={label}
    >
      <button
        type="button"
        className="tool-button"
        aria-label={lessLabel}
        disabled={!canLess}
        onClick={onLess}
      >
        −
      </button>
      <output
        className="quantity-stepper__count"
        aria-label={countLabel}
        aria-live={announce ? 'polite' : undefined}
      >
        {value}
      </output>
      <button
        type="button"
        className="tool-button"
        aria-label={moreLabel}
        disabled={!canMore}
        onClick={onMore}
      >
        +
      </button>
    </span>
  );
}
