import type { APIRequestContext } from '@playwright/test';
import type { Presentation } from '../src/lib/api/types';
import { addDays, todayInCinema } from '../src/lib/format';

export interface DaySchedule {
  date: string;
  presentations: Presentation[];
}

/** The schedule of one day, straight from the server under test. */
export async function scheduleFor(request: APIRequestContext, date: string): Promise<DaySchedule> {
  const response = await request.get(`/api/seats/presentations?date=${date}`);
  if (!response.ok()) throw new Error(`GET presentations for ${date}: HTTP ${response.status()}`);
  const body = (await response.json()) as { presentations: Presentation[] };
  return { date, presentations: body.presentations };
}

/** Today's schedule, or the first of the next days that has something on sale. */
export async function firstDayOnSale(request: APIRequestContext): Promise<DaySchedule> {
  const today = todayInCinema();
  for (let i = 0; i < 14; i += 1) {
    const day = await scheduleFor(request, addDays(today, i));
    if (day.presentations.some((p) => p.isOnSale && !p.isVod)) return day;
  }
  throw new Error('The demo data has nothing on sale in the next 14 days');
}
