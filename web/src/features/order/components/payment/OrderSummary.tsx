import { useTranslation } from 'react-i18next';
import { localizedName } from '../../../../lib/localized';
import { seatKey } from '../../../../lib/seatAddress';
import type { PricedCart } from '../../api/payment';
import { breakdownLines, priceText } from '../../model/priceText';

/**
 * The priced cart: each ticket at its full price with the service charge in it, the products,
 * the server's breakdown (tickets, a per-order service charge, products, total), the vouchers and
 * what is left to pay.
 */
export function OrderSummary({
  cart,
  money,
  sectionName,
}: {
  cart: PricedCart;
  money: (agorot: number) => string;
  sectionName: (sectionId: number, fallback: string) => string;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const options = { currency: cart.currency, chargeName: cart.serviceChargeName };
  return (
    <section className="payment-step__section order-total" aria-labelledby="payment-step-summary">
      <h2 id="payment-step-summary" className="payment-step__heading">
        {t('checkout.summary.title')}
      </h2>
      <ul className="order-total__lines">
        {cart.tickets.map((ticket) => {
          const price = priceText(t, lang, ticket, options);
          return (
            <li key={seatKey(ticket)} className="order-total__line">
              <span>
                {t('checkout.summary.ticketLine', {
                  section: sectionName(ticket.sectionId, ticket.sectionName),
                  row: ticket.rowName,
                  seat: ticket.seatName,
                })}
                {' · '}
                {localizedName(lang, ticket.ticketName, ticket.ticketNameEn)}
              </span>
              {!ticket.isMultiplyFactorSubTicket && (
                <span className="order-total__amount">
                  {price.full}
                  {price.included && <span className="order-total__note">{price.included}</span>}
                </span>
              )}
            </li>
          );
        })}
        {cart.products.map((product) => (
          <li key={`p-${product.id}`} className="order-total__line">
            <span>
              {t('checkout.summary.productLine', {
                name: localizedName(lang, product.name, product.nameEn),
                quantity: product.quantity,
              })}
            </span>
            <span className="order-total__amount">{money(product.amount)}</span>
          </li>
        ))}
      </ul>
      <dl className="order-total__breakdown">
        {breakdownLines(t, lang, cart.priceBreakdown, options).map((line) => (
          <div
            key={line.id}
            className={`order-total__line${line.id === 'total' ? ' order-total__total' : ''}`}
          >
            <dt>{line.label}</dt>
            <dd className="order-total__amount">
              {line.amount}
              {line.note && <span className="order-total__note">{line.note}</span>}
            </dd>
          </div>
        ))}
      </dl>
      {cart.voucherPayments.map((voucher) => (
        <p key={voucher.reference} className="order-total__line">
          <span>{t('checkout.summary.voucherLine', { reference: voucher.reference })}</span>
          <span className="order-total__amount">−{money(voucher.amount)}</span>
        </p>
      ))}
      <p className="order-total__line order-total__due">
        <span>{t('checkout.summary.amountDue')}</span>
        <span className="order-total__amount">{money(cart.amountDue)}</span>
      </p>
    </section>
  );
}
