import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18n from '../../lib/i18n';
import { renderApp } from '../../test/renderApp';
import { ErrorPageBoundary } from './ErrorPageBoundary';
import { RouteErrorPage } from './RouteErrorPage';

function Boom(): never {
  throw new Error('Kaboom');
}

describe('error screens', () => {
  it('shows "Error Occurred" with the status and message from /error', async () => {
    await renderApp('/error?status=403&message=Not%20for%20you&lang=en');
    expect(await screen.findByRole('heading', { name: 'Error Occurred' })).toBeInTheDocument();
    expect(screen.getByText('Error 403')).toBeInTheDocument();
    expect(screen.getByText('Not for you')).toBeInTheDocument();
  });

  it('defaults to status 500', async () => {
    await renderApp('/error?lang=en');
    expect(await screen.findByRole('heading', { name: 'Error Occurred' })).toBeInTheDocument();
    expect(screen.getByText('Error 500')).toBeInTheDocument();
  });

  it('is translated into Hebrew', async () => {
    await renderApp('/error');
    expect(await screen.findByRole('heading', { name: 'אירעה שגיאה' })).toBeInTheDocument();
    expect(screen.getByText('שגיאה 500')).toBeInTheDocument();
  });

  it('catches a page that throws, as a 500 with its message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await i18n.changeLanguage('en');
    const router = createMemoryRouter([
      { path: '/', element: <Boom />, errorElement: <RouteErrorPage /> },
    ]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: 'Error Occurred' })).toBeInTheDocument();
    expect(screen.getByText('Error 500')).toBeInTheDocument();
    expect(screen.getByText('Kaboom')).toBeInTheDocument();
  });

  it('falls back to a plain message and a home link when the error page itself fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await i18n.changeLanguage('en');
    render(
      <ErrorPageBoundary>
        <Boom />
      </ErrorPageBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('We could not show the error page either.');
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });
});
