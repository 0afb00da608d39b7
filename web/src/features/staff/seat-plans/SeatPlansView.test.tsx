import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import i18n from '../../../lib/i18n';
import { renderApp, type ApiHandler } from '../../../test/renderApp';
import { cinemaFilterData, staffUser } from '../testing/staffAnswers';

const manager = staffUser();

const filterData = cinemaFilterData();

const choices = {
  complexes: [
    {
      id: 2,
      name: 'נמל',
      nameEn: 'Port',
      businessId: 1,
      halls: [{ id: 7, name: 'אולם 1', nameEn: 'Hall 1', seatplanId: 12, ticketGroups: [] }],
    },
  ],
  features: [],
  ticketGroups: [],
  cleaningGapMinutes: 15,
};

const version = (id: number, n: number, newest: boolean) => ({
  id,
  venueId: 7,
  name: `Plan ${n}`,
  version: n,
  sections: 1,
  seats: 120 + n,
  gaCapacity: 0,
  screenings: 3,
  upcoming: 1,
  newest,
  basedOn: null,
  savedAt: null,
  savedBy: null,
});

function api(versions: ApiHandler): ApiHandler {
  return (url, init) => {
    if (url.pathname === '/api/staff/me') return { body: manager };
    if (url.pathname === '/api/PRES-live/getCinemaFilterData') return { body: filterData };
    if (url.pathname.startsWith('/api/PRES-live/attendanceByDate/')) return { body: { days: [] } };
    if (url.pathname === '/api/staff/programme/choices') return { body: choices };
    if (url.pathname === '/api/staff/seatPlans') return versions(url, init);
    return undefined;
  };
}

describe('the seat plans list', () => {
  it("is the back office's table: a region named for the hall, a version a row, newest first", async () => {
    await renderApp('/PRES-live?lang=en&view=seatPlans', {
      api: api(() => ({
        body: {
          hall: { id: 7, locationId: 2, name: 'אולם 1', nameEn: 'Hall 1' },
          ticketGroups: [],
          versions: [version(13, 2, true), version(12, 1, false)],
        },
      })),
    });
    const list = await screen.findByRole('region', {
      name: 'The seat plans of Hall 1, newest first',
    });
    const rows = within(list).getAllByRole('row');
    expect(rows.map((r) => r.querySelector('th')?.textContent)).toEqual([
      'Version',
      'Version 2Newest',
      'Version 1',
    ]);
    expect(
      within(list)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Version', 'Plan name', 'Saved', 'Size', 'Screenings', 'Open']);
    expect(rows[1]).toHaveTextContent('122 seats');
    expect(screen.getByText('· 2 versions')).toBeInTheDocument();
    // Opening a version folds the list away for the editor.
    const user = userEvent.setup();
    expect(list.closest('details')).toHaveAttribute('open');
    await user.click(within(list).getByRole('button', { name: 'Open version 1' }));
    expect(list.closest('details')).not.toHaveAttribute('open');
  });

  it("says why when the hall's versions could not be fetched", async () => {
    await renderApp('/PRES-live?lang=en&view=seatPlans', {
      api: api(() => ({ status: 403, body: { error: { code: 'forbidden', message: '' } } })),
    });
    expect(await screen.findByRole('heading', { name: 'Seat plans', level: 2 })).toBeVisible();
    // The notice the other back-office lists show, where the table would be.
    expect(await screen.findByRole('heading', { name: i18n.t('errors.forbidden') })).toBeVisible();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
