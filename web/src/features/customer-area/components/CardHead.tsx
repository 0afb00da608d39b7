// The head of a card of the customer's area (a reservation, a membership, a voucher, a rental):
// its title and its state as a coloured badge.
export function CardHead({
  title,
  titleId,
  badge,
  badgeText,
}: {
  title: string;
  /** The title's id, when the card is labelled by it. */
  titleId?: string;
  /** The badge's modifier (`area__badge--<badge>`): its colour. */
  badge: string;
  badgeText: string;
}) {
  return (
    <div className="area__card-head">
      <h3 id={titleId} className="area__card-title">
        {title}
      </h3>
      <span className={`area__badge area__badge--${badge}`}>{badgeText}</span>
    </div>
  );
}
