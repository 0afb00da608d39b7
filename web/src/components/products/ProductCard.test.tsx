import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '../../lib/api/types';
import { formatMoney } from '../../lib/format';
import i18n from '../../lib/i18n';
import { ProductCard } from './ProductCard';

const popcorn: Product = {
  id: 3,
  name: 'פופקורן גדול',
  nameEn: 'Large popcorn',
  category: 'popcorn',
  price: 2950,
  currency: 'ILS',
  img: '/api/products/3/image?w=240&v=2',
  imgSrcset: '/api/products/3/image?w=240&v=2 240w, /api/products/3/image?w=480&v=2 480w',
  selectedQuantity: 0,
};

function renderCard(props: Partial<Parameters<typeof ProductCard>[0]> = {}) {
  const onQuantity = vi.fn();
  render(
    <ul className="product-cards">
      <ProductCard product={popcorn} quantity={0} max={20} onQuantity={onQuantity} {...props} />
    </ul>,
  );
  return { onQuantity, card: screen.getByRole('listitem') };
}

afterAll(() => i18n.changeLanguage('he'));

describe('the product card in English', () => {
  beforeEach(() => i18n.changeLanguage('en'));

  it('shows the picture the server sends, the name and the price from agorot', () => {
    const { card } = renderCard();
    expect(card).toHaveTextContent('Large popcorn');
    expect(card).toHaveTextContent('₪29.50');
    const img = card.querySelector('img');
    expect(img).toHaveAttribute('src', popcorn.img);
    expect(img).toHaveAttribute('srcset', popcorn.imgSrcset);
    // The name beside it says what it is: the picture is decoration.
    expect(img).toHaveAttribute('alt', '');
  });

  it('asks for one more or one less, named for the product', async () => {
    const user = userEvent.setup();
    const { onQuantity } = renderCard({ quantity: 2 });
    const stepper = screen.getByRole('group', { name: 'Large popcorn' });
    expect(within(stepper).getByRole('status')).toHaveTextContent('2');
    await user.click(screen.getByRole('button', { name: 'One more Large popcorn' }));
    expect(onQuantity).toHaveBeenLastCalledWith(3);
    await user.click(screen.getByRole('button', { name: 'One Large popcorn less' }));
    expect(onQuantity).toHaveBeenLastCalledWith(1);
  });

  it('offers no fewer than none and no more than the most allowed', () => {
    renderCard({ quantity: 0, max: 20 });
    expect(screen.getByRole('button', { name: 'One Large popcorn less' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'One more Large popcorn' })).toBeEnabled();
    screen.getByRole('listitem').remove();
    renderCard({ quantity: 20, max: 20 });
    expect(screen.getByRole('button', { name: 'One more Large popcorn' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'One Large popcorn less' })).toBeEnabled();
  });

  it('takes no change while one is being saved, and says it is busy', () => {
    const { card } = renderCard({ quantity: 1, busy: true });
    expect(card).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'One more Large popcorn' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'One Large popcorn less' })).toBeDisabled();
  });

  it('is not busy when nothing is being saved', () => {
    const { card } = renderCard({ quantity: 1 });
    expect(card).not.toHaveAttribute('aria-busy');
  });
});

describe('the product card in Hebrew', () => {
  beforeEach(() => i18n.changeLanguage('he'));

  it('names the product and its buttons in Hebrew and prices it in shekels', () => {
    const { card } = renderCard({ quantity: 1 });
    expect(card).toHaveTextContent('פופקורן גדול');
    // As the app writes money in Hebrew (the figure, then the sign, with direction marks).
    expect(card.textContent).toContain(formatMoney(2950, 'he', 'ILS'));
    expect(card).toHaveTextContent(/29\.50.*₪/);
    expect(screen.getByRole('group', { name: 'פופקורן גדול' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'עוד פופקורן גדול' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'פופקורן גדול אחד פחות' })).toBeEnabled();
  });
});
