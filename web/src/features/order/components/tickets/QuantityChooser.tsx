import { useTranslation } from 'react-i18next';
import { QuantityStepper } from '../../../../components/ui/QuantityStepper';
import type { Ticket, TicketGroup } from '../../../../lib/api/types';
import { formatMoney, intlLocale } from '../../../../lib/format';
import { localizedName } from '../../../../lib/localized';
import { priceText } from '../../model/priceText';
import type { TicketLine } from '../../model/ticketLines';
import {
  addTicket,
  canAdd,
  choosableTickets,
  quantityOf,
  removeTicket,
  unassignedCount,
} from '../../model/ticketQuantities';

/**
 * How many of each ticket, as cinema sites ask: each + puts one more on a seat (taken from the
 * default ticket, or a seat with none), each − gives its seat back to the default. Tickets for a
 * kind of seat are offered only while a held seat serves that kind.
 */
export function QuantityChooser({
  groupId,
  title,
  lines,
  groups,
  chargeName,
  disabled,
  onChange,
}: {
  groupId: number;
  title: string | null;
  lines: TicketLine[];
  groups: TicketGroup[];
  chargeName?: string | null;
  disabled: boolean;
  onChange: (lines: TicketLine[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const headingId = `quantities-${groupId}`;
  const seats = lines.filter((l) => l.ticketGroupId === groupId && !l.code).length;
  const left = unassignedCount(lines, groupId);
  if (seats === 0) return null;
  return (
    <div
      className="tickets-step__panel tickets-step__quantities"
      role="group"
      aria-labelledby={headingId}
    >
      <h3 id={headingId} className="tickets-step__panel-title">
        {title ? t('order.tickets.quantitiesOf', { group: title }) : t('order.tickets.quantities')}
      </h3>
      <p className="tickets-step__muted" aria-live="polite">
        {left > 0
          ? t('order.tickets.seatsLeft', { count: left })
          : t('order.tickets.seatsCovered', { count: seats })}
      </p>
      <ul className="tickets-step__types">
        {choosableTickets(lines, groups, groupId).map((ticket) => {
          const name = localizedName(lang, ticket.name, ticket.nameEn);
          const count = quantityOf(lines, ticket);
          return (
            <li key={ticket.id} className="tickets-step__type">
              <TicketLabel ticket={ticket} chargeName={chargeName} />
              <QuantityStepper
                value={count}
                lessLabel={t('order.tickets.less', { ticket: name })}
                moreLabel={t('order.tickets.more', { ticket: name })}
                countLabel={t('order.tickets.howMany', { ticket: name })}
                canLess={!disabled && count > 0}
                canMore={!disabled && canAdd(lines, groups, ticket)}
                onLess={() => {
                  const next = removeTicket(lines, groups, ticket);
                  if (next) onChange(next);
                }}
                onMore={() => {
                  const next = addTicket(lines, groups, ticket);
                  if (next) onChange(next);
                }}
              />
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** A ticket's name and full price, the service charge in it said beside. */
export function TicketLabel({
  ticket,
  chargeName,
}: {
  ticket: Ticket;
  chargeName?: string | null;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const options = { currency: ticket.currency, chargeName };
  const price = priceText(t, lang, ticket, options);
  // The old price is compared like for like: with the same service charge.
  const old =
    ticket.oldPrice != null && ticket.oldPrice > ticket.price
      ? priceText(t, lang, { price: ticket.oldPrice, serviceCharge: ticket.serviceCharge }, options)
      : null;
  return (
    <span className="tickets-step__ticket">
      <span className="tickets-step__ticket-name">
        {localizedName(lang, ticket.name, ticket.nameEn)}
      </span>
      <span className="tickets-step__price">
        <span className="tickets-step__amounts">
          {old && (
            <s className="tickets-step__old-price">
              <span className="visually-hidden">{t('order.tickets.oldPrice')} </span>
              {old.full}
            </s>
          )}
          <span>{price.full}</span>
        </span>
        {ticket.isLoyaltyPointsRedemption && ticket.loyaltyPointsPrice != null && (
          <span className="tickets-step__points">
            {t('loyalty.pointsPrice', {
              points: new Intl.NumberFormat(intlLocale(lang)).format(ticket.loyaltyPointsPrice),
            })}
          </span>
        )}
        {ticket.memberBalancePrice != null && (
          <span className="tickets-step__points">
            {t('seriesPass.price', { amount: formatMoney(ticket.memberBalancePrice, lang) })}
          </span>
        )}
        {price.included && <span className="tickets-step__included">{price.included}</span>}
      </span>
    </span>
  );
}
