import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SavedCard } from '../../../../lib/api/customer';

/**
 * The logged-in customer's saved cards as radio choices: brand, last four digits and expiry, never
 * more. An expired card is listed, marked, and cannot be chosen. The card's digits read left to
 * right inside a right-to-left page.
 */
export function SavedCardChoice({
  cards,
  chosen,
  onChoose,
}: {
  cards: readonly SavedCard[];
  /** The token of the chosen card (a usable one). */
  chosen: string | undefined;
  onChoose: (token: string) => void;
}) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <fieldset className="payment-step__saved-cards">
      <legend className="payment-step__saved-title">{t('checkout.savedCards.title')}</legend>
      <ul>
        {cards.map((c) => (
          <li key={c.token}>
            <label className="checkout-check">
              <input
                type="radio"
                name={name}
                value={c.token}
                checked={!c.isExpired && c.token === chosen}
                disabled={c.isExpired}
                onChange={() => onChoose(c.token)}
              />
              <bdi dir="ltr">
                {t('checkout.savedCards.card', {
                  brand: c.brand.toUpperCase(),
                  last4: c.last4,
                  month: String(c.expiryMonth).padStart(2, '0'),
                  year: String(c.expiryYear).slice(-2),
                })}
              </bdi>
              {c.isExpired && <> {t('checkout.savedCards.expired')}</>}
            </label>
          </li>
        ))}
      </ul>
      <p className="payment-step__saved-hint">{t('checkout.savedCards.hint')}</p>
    </fieldset>
  );
}
