import { useTranslation } from 'react-i18next';
import type { Product } from '../../lib/api/types';
import { formatMoney } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import { QuantityStepper } from '../ui/QuantityStepper';
import './ProductCard.css';

/**
 * A product (popcorn, a drink) offered with an order or a gift (decision 0077): its picture, its
 * name, its price and how many are chosen. One item of a `<ul className="product-cards">`.
 */
export function ProductCard({
  product,
  quantity,
  max,
  busy = false,
  onQuantity,
}: {
  product: Product;
  quantity: number;
  /** The most the buyer may take of it. */
  max: number;
  /** A change is being saved: the card waits for it before it takes another. */
  busy?: boolean;
  onQuantity: (next: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const name = localizedName(lang, product.name, product.nameEn);
  return (
    <li className="product-card" aria-busy={busy || undefined}>
      <img
        className="product-card__img"
        src={product.img}
        srcSet={product.imgSrcset ?? undefined}
        sizes="3.5rem"
        alt=""
        width={72}
        height={72}
      />
      <div className="product-card__info">
        <span className="product-card__name">{name}</span>
        <span className="product-card__price">
          {formatMoney(product.price, lang, product.currency)}
        </span>
      </div>
      <QuantityStepper
        label={name}
        value={quantity}
        lessLabel={t('product.less', { product: name })}
        moreLabel={t('product.more', { product: name })}
        canLess={!busy && quantity > 0}
        canMore={!busy && quantity < max}
        onLess={() => onQuantity(quantity - 1)}
        onMore={() => onQuantity(quantity + 1)}
        announce
      />
    </li>
  );
}
