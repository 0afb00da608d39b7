import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeFeature, makePresentation } from '../../test/fixtures';
import { renderApp, type ApiHandler } from '../../test/renderApp';
import { addDays, formatTime, todayInCinema } from '../../lib/format';

const today = todayInCinema();

const presentations = [
  makePresentation({ id: 201, dateTime: `${today}T18:00:00Z` }),
  makePresentation({
    id: 202,
    dateTime: `${today}T15:00:00Z`,
    locationId: 3,
    locationName: 'סינמה סיטי',
    locationNameEn: 'Cinema City',
  }),
  makePresentation({
    id: 301,
    featureId: 2,
    featureName: 'ערב קסום',
    featureNameEn: 'Magic Evening',
    dateTime: `${today}T16:00:00Z`,
  }),
  makePresentation({
    id: 401,
    featureId: 3,
    featureName: 'סרט בבית',
    featureNameEn: 'Film at Home',
    dateTime: `${today}T10:00:00Z`,
    isVod: true,
    venueTypeId: 101,
  }),
  makePresentation({
    id: 501,
    featureId: 2,
    featureName: 'ערב קסום',
    featureNameEn: 'Magic Evening',
    dateTime: `${today}T19:00:00Z`,
    isOnSale: false,
    saleState: 'ended',
  }),
];

const lastDay = addDays(today, 14);
const lastDayShow = makePresentation({
  id: 901,
  featureId: 2,
  featureName: 'ערב קסום',
  featureNameEn: 'Magic Evening',
  dateTime: `${lastDay}T17:00:00Z`,
});

const api: ApiHandler = (url) => {
  if (url.pathname === '/api/seats/presentations') {
    const date = url.searchParams.get('date');
    return {
      body: {
        presentations: date === today ? presentations : date === lastDay ? [lastDayShow] : [],
        // Screenings on sale today and on the fifteenth day, one past a fortnight.
        saleDates: [today, lastDay],
        serverTime: `${today}T06:00:00Z`,
      },
    };
  }
  if (url.pathname === '/api/features/') {
    return {
      body: {
        features: [
          makeFeature(),
          makeFeature({ id: 2, name: 'ערב קסום', nameEn: 'Magic Evening' }),
        ],
      },
    };
  }
  return undefined;
};

describe("What's on", () => {
  it('lists today by feature with Hebrew names, posters and showtimes grouped by complex', async () => {
    const { fetchMock } = await renderApp('/', { api });
    const card = await screen.findByRole('article', { name: 'הסרט הגדול' });
    expect(within(card).getByRole('heading', { name: 'קולנוע הדר' })).toBeInTheDocument();
    expect(within(card).getByRole('heading', { name: 'סינמה סיטי' })).toBeInTheDocument();
    expect(card.querySelector('img')).toHaveAttribute('src', '/api/features/1/placeholderImage');
    expect(fetchMock.mock.calls.map((c) => String(c[0]))).toContain(
      `/api/seats/presentations?date=${today}`,
    );
    // Features in order of their first showtime.
    const names = screen
      .getAllByRole('article')
      .map((a) => within(a).getByRole('heading', { level: 2 }).textContent);
    expect(names).toEqual(['סרט בבית', 'הסרט הגדול', 'ערב קסום']);
    // Each name leads to the film's own page.
    expect(within(card).getByRole('link', { name: 'הסרט הגדול' })).toHaveAttribute(
      'href',
      '/movie/1',
    );
  });

  it('keeps a rating left to right in Hebrew, and titles posters in the page language', async () => {
    const first = await renderApp('/', { api });
    const card = await screen.findByRole('article', { name: 'הסרט הגדול' });
    const rating = within(card).getByText('12+');
    expect(rating.tagName).toBe('BDI');
    expect(rating).toHaveAttribute('dir', 'ltr');
    first.unmount();

    await renderApp('/?lang=en', { api });
    const english = await screen.findByRole('article', { name: 'The Big Movie' });
    expect(english.querySelector('img')).toHaveAttribute(
      'src',
      '/api/features/1/placeholderImage?lang=en',
    );
  });

  it('links buy buttons to the order page keeping the language', async () => {
    await renderApp('/?lang=en', { api });
    const card = await screen.findByRole('article', { name: 'The Big Movie' });
    const time = formatTime(`${today}T18:00:00Z`, 'en');
    const buy = within(card).getByRole('link', {
      name: `Buy tickets: The Big Movie, ${time}, Hall 3`,
    });
    expect(buy).toHaveAttribute('href', '/order/201?lang=en');
  });

  it('links video on demand to its watch-now order, and no buy button when not on sale', async () => {
    await renderApp('/?lang=en', { api });
    const magic = await screen.findByRole('article', { name: 'Magic Evening' });
    const home = screen.getByRole('article', { name: 'Film at Home' });
    const watch = within(home).getByRole('link', { name: /^Watch now: Film at Home, / });
    expect(watch).toHaveAttribute('href', '/vod?presentationId=401&lang=en');
    // The film's name links its page; of the showtimes, only the one on sale links an order.
    const links = within(magic).getAllByRole('link');
    expect(links.filter((a) => a.getAttribute('href')?.startsWith('/movie/'))).toHaveLength(1);
    expect(links.filter((a) => !a.getAttribute('href')?.startsWith('/movie/'))).toHaveLength(1);
    expect(within(magic).getByText('Sales have ended')).toBeInTheDocument();
  });

  it('lists presentations chronologically in the second tab', async () => {
    const user = userEvent.setup();
    await renderApp('/?lang=en', { api });
    await screen.findByRole('article', { name: 'The Big Movie' });
    await user.click(screen.getByRole('tab', { name: 'By showtime' }));
    expect(screen.getByRole('tab', { name: 'By showtime' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const rows = within(screen.getByRole('tabpanel')).getAllByRole('listitem');
    expect(rows.map((r) => within(r).getByRole('heading').textContent)).toEqual([
      'Film at Home',
      'The Big Movie',
      'Magic Evening',
      'The Big Movie',
      'Magic Evening',
    ]);
    expect(within(rows[1]).getByRole('link', { name: /Buy tickets/ })).toHaveAttribute(
      'href',
      '/order/202?lang=en',
    );
  });

  it('offers every day up to the last one on sale, and loads the chosen one', async () => {
    const user = userEvent.setup();
    const { fetchMock } = await renderApp('/?lang=en', { api });
    await screen.findByRole('article', { name: 'The Big Movie' });
    const strip = screen.getByRole('group', { name: 'Choose a date' });
    const days = within(strip).getAllByRole('button');
    expect(days).toHaveLength(15);
    expect(days[0]).toHaveAttribute('aria-pressed', 'true');
    expect(days[0]).toHaveTextContent('Today');
    expect(days[1]).toHaveTextContent('Tomorrow');
    // The spoken name begins with what is seen on the button (WCAG 2.5.3, label in name).
    for (const day of days) {
      const seen =
        (day.querySelector('.date-strip__name')?.textContent ?? '') +
        (day.querySelector('.date-strip__date')?.textContent ?? '');
      expect(day).toHaveAccessibleName(expect.stringMatching(new RegExp(`^${seen}`)));
    }
    await user.click(days[1]);
    expect(
      await screen.findByRole('heading', { name: 'No screenings on this date.' }),
    ).toBeInTheDocument();
    expect(fetchMock.mock.calls.map((c) => String(c[0]))).toContain(
      `/api/seats/presentations?date=${addDays(today, 1)}`,
    );
  });

  it('shows the last day on sale from its address', async () => {
    await renderApp(`/?lang=en&date=${lastDay}`, { api });
    expect(await screen.findByRole('article', { name: 'Magic Evening' })).toBeInTheDocument();
    const days = within(screen.getByRole('group', { name: 'Choose a date' })).getAllByRole(
      'button',
    );
    expect(days[14]).toHaveAttribute('aria-pressed', 'true');
  });

  it('says a date outside the sale is not on sale instead of showing today', async () => {
    const user = userEvent.setup();
    await renderApp(`/?lang=en&date=${addDays(today, 30)}`, { api });
    expect(
      await screen.findByRole('heading', { name: 'Nothing is on sale on this date.' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'The Big Movie' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: "See today's screenings" }));
    expect(await screen.findByRole('article', { name: 'The Big Movie' })).toBeInTheDocument();
  });

  it('says so when the schedule cannot be loaded', async () => {
    await renderApp('/?lang=en', {
      api: (url) =>
        url.pathname === '/api/seats/presentations'
          ? { status: 500, body: { error: { code: 'GENERAL_ERROR', message: 'x' } } }
          : undefined,
    });
    expect(
      await screen.findByRole('heading', { name: 'The schedule could not be loaded.' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Something went wrong. Please try again')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
