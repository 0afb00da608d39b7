import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n';
import { makePresentation } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import type { EDocument } from './api';

const QR =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect id="qr-marker" width="2" height="2"/></svg>';

const doc = (over: Partial<EDocument> = {}): EDocument => ({
  entranceTime: '2026-07-14T17:00:00Z',
  presentation: makePresentation(),
  qrSvg: QR,
  reservationNumber: '100234',
  row: '4',
  seat: '7',
  section: 'יציע',
  sectionEn: 'Balcony',
  state: 'valid',
  scannedAt: null,
  ticketType: 'רגיל',
  ticketTypeEn: 'Regular',
  ...over,
});

function open(answer: EDocument | null, url = '/edocument/k1') {
  return renderApp(url, {
    api: (u) => (u.pathname === '/api/edocument/k1' && answer ? { body: answer } : undefined),
  });
}

describe('e-document page', () => {
  it('shows a valid ticket with its seat, entrance time and QR as an image', async () => {
    const { container } = await open(doc());
    expect(await screen.findByText('כרטיס בתוקף')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'הסרט הגדול', level: 2 })).toBeInTheDocument();
    expect(screen.getByText('יציע, שורה 4, מושב 7')).toBeInTheDocument();
    expect(screen.getByText('רגיל')).toBeInTheDocument();
    expect(screen.getByText('20:00')).toBeInTheDocument();
    expect(screen.getByText(/קולנוע הדר, אולם 3/)).toBeInTheDocument();
    // The order number reads left to right but its cell stays aligned with the others.
    const number = screen.getByText('100234');
    expect(number.tagName).toBe('BDI');
    expect(number).toHaveAttribute('dir', 'ltr');
    expect(number.closest('dd')).not.toHaveAttribute('dir');
    const qr = screen.getByRole('img', { name: 'קוד QR של הכרטיס' });
    expect(qr.getAttribute('src')).toBe(
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(QR)}`,
    );
    // The server's markup never becomes part of the page.
    expect(container.querySelector('#qr-marker')).toBeNull();
  });

  it('says when the ticket was already scanned', async () => {
    await open(doc({ state: 'scanned', scannedAt: '2026-07-14T17:05:00Z' }));
    expect(await screen.findByText(/הכרטיס כבר נסרק ב-.*20:05/)).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'קוד QR של הכרטיס' })).not.toBeInTheDocument();
  });

  it('says when the ticket was cancelled', async () => {
    await open(doc({ state: 'cancelled' }));
    expect(await screen.findByText('הכרטיס בוטל')).toBeInTheDocument();
  });

  it('says when there is no such ticket', async () => {
    await open(null, '/edocument/nope');
    expect(await screen.findByRole('heading', { name: 'הכרטיס לא נמצא' })).toBeInTheDocument();
  });

  it('reads in English', async () => {
    await open(doc(), '/edocument/k1?lang=en');
    await i18n.changeLanguage('en');
    expect(await screen.findByText('Valid ticket')).toBeInTheDocument();
    expect(screen.getByText('Regular')).toBeInTheDocument();
    expect(screen.getByText('Balcony, row 4, seat 7')).toBeInTheDocument();
  });
});
