// The data of the page a visitor lands on, asked for at once, beside the configuration: the pages
// would ask for it only after the configuration, the router and their own code, a round trip or
// two later (on a slow phone network that is the first poster a second late). Only the landing
// pages a visitor opens cold (what's on, an order) and only queries whose keys the pages own.
import type { QueryClient } from '@tanstack/react-query';
import { isCalendarDate, todayInCinema } from '../lib/format';
import { presentationsByDateQuery } from '../features/whats-on/api';
import { presentationQuery } from '../features/order/api/presentation';

export function prefetchLanding(
  client: QueryClient,
  location: Pick<Location, 'pathname' | 'search'>,
) {
  const params = new URLSearchParams(location.search);
  if (location.pathname === '/') {
    const requested = params.get('date') ?? '';
    const date = isCalendarDate(requested) ? requested : todayInCinema();
    void client.prefetchQuery(presentationsByDateQuery(date));
    return;
  }
  const order = /^\/order\/(\d{1,12})\/?$/.exec(location.pathname);
  if (order) void client.prefetchQuery(presentationQuery(Number(order[1])));
}
