import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ConfirmationStep } from './ConfirmationStep';

describe('the confirmation step', () => {
  it('moves the paid order to its own address in place of the checkout, keeping the language', async () => {
    const router = createMemoryRouter(
      [
        { path: '/', element: <p>home</p> },
        { path: '/order/:id', element: <ConfirmationStep reservationIdentifier="r-1" /> },
        { path: '/reservation/:reservationId', element: <p>the reservation</p> },
      ],
      { initialEntries: ['/', '/order/7?lang=en'] },
    );
    const { findByText } = render(<RouterProvider router={router} />);
    expect(await findByText('the reservation')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/reservation/r-1');
    expect(router.state.location.search).toBe('?lang=en');
    // Replaced, not pushed: Back leaves the finished checkout behind.
    expect(router.state.historyAction).toBe('REPLACE');
    await router.navigate(-1);
    expect(router.state.location.pathname).toBe('/');
  });
});
