import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { makePresentation } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const ID = '0123456789abcdef0123456789abcdef';

const item = (over: Record<string, unknown> = {}) => ({
  ReservationIdentifier: ID,
  reservationNumber: '1234-5678',
  presentation: makePresentation({
    id: 4,
    featureName: 'אות הבדיקה',
    featureNameEn: 'The Test Signal',
    isVod: true,
    venueTypeId: 101,
  }),
  offer: 'rent',
  status: 'available',
  availabilityStart: '2026-11-26T00:00:00Z',
  availabilityEnd: '2026-11-28T18:00:00Z',
  playbackCount: 0,
  playbackBalance: 3,
  lastPlayback: null,
  purchaseDate: '2026-11-26T18:00:00Z',
  ...over,
});

afterEach(() => sessionStorage.clear());

describe('the video-on-demand player', { timeout: 30_000 }, () => {
  it('spends one viewing only when the buyer starts, then plays the session’s link', async () => {
    let opened = 0;
    const { fetchMock } = await renderApp(`/vod?reservation=${ID}&lang=en`, {
      api: (url, init) => {
        if (url.pathname === `/api/vod/${ID}/play` && init?.method === 'POST') {
          opened += 1;
          return {
            body: {
              item: item({ playbackCount: 1, playbackBalance: 2 }),
              streamUrl: `/api/vod/${ID}/stream?play=1&exp=1900000000&sig=ab`,
              expiresAt: '2030-03-17T17:46:40Z',
            },
          };
        }
        if (url.pathname === `/api/vod/${ID}`) return { body: item() };
        return undefined;
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'The Test Signal' })).toBeVisible();
    expect(screen.getByText('3 left, 0 used')).toBeInTheDocument();
    expect(screen.getByText('Rental')).toBeInTheDocument();
    expect(document.querySelector('video')).toBeNull();
    expect(opened).toBe(0);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Start watching' }));
    const video = await screen.findByLabelText('Player: The Test Signal');
    expect(video).toHaveAttribute('src', `/api/vod/${ID}/stream?play=1&exp=1900000000&sig=ab`);
    expect(opened).toBe(1);
    expect(screen.getByText('2 left, 1 used')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalled();
  });

  it('offers nothing to play outside the window or with no viewing left', async () => {
    await renderApp(`/vod?reservation=${ID}&lang=en`, {
      api: (url) =>
        url.pathname === `/api/vod/${ID}` ? { body: item({ status: 'expired' }) } : undefined,
    });
    expect(await screen.findByRole('heading', { name: 'Expired', level: 2 })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Start watching' })).toBeNull();
  });

  it('says a purchase it cannot find is not this browser’s', async () => {
    await renderApp(`/vod?reservation=${ID}&lang=en`, {
      api: (url) =>
        url.pathname === `/api/vod/${ID}`
          ? { status: 404, body: { error: { code: 'notFound', message: 'no' } } }
          : undefined,
    });
    expect(
      await screen.findByRole('heading', { name: /We could not find this purchase/ }),
    ).toBeVisible();
  });
});
