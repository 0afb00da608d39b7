import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makePresentation } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const presentation = makePresentation({ id: 77, dateTime: '2026-07-14T17:30:00Z' });

const api = (url: URL) =>
  url.pathname === '/api/presentations/77'
    ? { body: { presentation, serverTime: '2026-07-14T09:00:00Z', error: null } }
    : undefined;

describe('order page', () => {
  it('shows which screening the buyer chose, the steps, and the seat step first', async () => {
    await renderApp('/order/77?lang=en', { api });
    expect(await screen.findByRole('heading', { name: 'The Big Movie' })).toBeInTheDocument();
    expect(screen.getByText('Hadar Cinema')).toBeInTheDocument();
    expect(screen.getByText('Hall 3')).toBeInTheDocument();
    expect(
      screen.getByText(
        (_, el) => el?.tagName === 'TIME' && el.textContent === 'Tuesday, 14/07/2026, 20:30',
      ),
    ).toBeInTheDocument();
    const steps = screen.getByRole('navigation', { name: 'Order steps' });
    // No products at this complex: the extras step is left out.
    expect(steps).toHaveTextContent(/^1Seats2Tickets3Details and payment4Confirmation$/);
    expect(within(steps).getByText('Seats').closest('li')).toHaveAttribute('aria-current', 'step');
  });

  it('shows Hebrew names in Hebrew', async () => {
    await renderApp('/order/77', { api });
    expect(await screen.findByRole('heading', { name: 'הסרט הגדול' })).toBeInTheDocument();
    expect(screen.getByText('אולם 3')).toBeInTheDocument();
  });

  it('explains an unknown presentation with the error catalogue', async () => {
    await renderApp('/order/78?lang=en', {
      api: () => ({ status: 404, body: { error: { code: 'noEvent', message: 'nope' } } }),
    });
    expect(await screen.findByText('This screening was not found')).toBeInTheDocument();
  });
});
