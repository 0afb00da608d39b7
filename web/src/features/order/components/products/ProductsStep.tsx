import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ProductCard } from '../../../../components/products/ProductCard';
import { orderErrorMessage } from '../../model/cartErrors';
import { breakdownLines, withProducts } from '../../model/priceText';
import { StepHead, TimeExpired } from '../StepHead';
import { useRemaining } from '../../../../lib/useRemaining';
import { stamp } from '../../../../lib/countdownClock';
import { useOrder } from '../../hooks/orderContext';
import { MAX_PRODUCT_QUANTITY } from '../../model/orderState';
import { usePostCart } from '../../api/tickets';
import { cartBody } from '../../model/ticketLines';
import '../tickets/TicketsStep.css';

/** Step 3 of the ticket order (when the complex sells any): popcorn, drinks and the like. */
export function ProductsStep() {
  const { presentation, state, dispatch, restart } = useOrder();
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const products = presentation.products ?? [];
  const { choice, clock, productsDraft: quantities } = state;
  // The cart the tickets step posted: its totals, priced again here with the products chosen.
  const cart = state.cart;
  const postCart = usePostCart();
  const busy = postCart.isPending;
  const [message, setMessage] = useState<string | null>(null);
  const remaining = useRemaining(clock?.expiresAt, clock?.serverTime ?? '', clock?.receivedAt ?? 0);
  const expired = remaining !== null && remaining <= 0;
  if (!choice || !cart) return null;

  const onBack = () => dispatch({ type: 'wentTo', step: 'tickets' });
  const quantity = (id: number) => quantities[id] ?? 0;
  const setQuantity = (id: number, next: number) =>
    dispatch({ type: 'productQuantitySet', productId: id, quantity: next });

  const currency = cart.currency;
  const productsTotal = products.reduce((sum, p) => sum + p.price * quantity(p.id), 0);
  const summary = breakdownLines(t, lang, withProducts(cart.priceBreakdown, productsTotal), {
    currency,
    chargeName: cart.serviceChargeName,
  });

  const submit = () => {
    setMessage(null);
    const body = cartBody(presentation.id, choice.lines, choice.groups, {
      step: 'customerInfo',
      locale: lang,
      memberNumber: choice.memberNumber,
      products: quantities,
    });
    postCart.mutate(body, {
      onSuccess: (answer) =>
        dispatch({ type: 'productsPriced', products: quantities, answer: stamp(answer) }),
      onError: (error) => setMessage(orderErrorMessage(t, error)),
    });
  };

  return (
    <section className="tickets-step products-step" aria-labelledby="products-step-title">
      <StepHead id="products-step-title" title={t('order.products.title')} remaining={remaining} />

      {expired && <TimeExpired onRestart={restart} />}

      <ul className="product-cards">
        {products.map((p) => (
          <ProductCard
            key={p.id}
            product={p}
            quantity={quantity(p.id)}
            max={MAX_PRODUCT_QUANTITY}
            busy={busy}
            onQuantity={(next) => setQuantity(p.id, next)}
          />
        ))}
      </ul>

      <div role="alert" className="tickets-step__alert" hidden={!message}>
        {message && <p className="tickets-step__alert-text">{message}</p>}
      </div>

      <div className="tickets-step__footer">
        <dl className="products-step__totals">
          {summary.map((line) => (
            <div key={line.id} className={line.id === 'total' ? 'products-step__grand' : undefined}>
              <dt>{line.label}</dt>
              <dd>
                {line.amount}
                {line.note && <span className="products-step__note">{line.note}</span>}
              </dd>
            </div>
          ))}
        </dl>
        <div className="tickets-step__actions">
          <button type="button" className="button button--ghost" onClick={onBack} disabled={busy}>
            {t('order.back')}
          </button>
          <button
            type="button"
            className="button button--primary"
            onClick={submit}
            disabled={busy || expired}
          >
            {t('order.continue')}
          </button>
        </div>
      </div>
    </section>
  );
}
