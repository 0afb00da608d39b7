import { expect, type APIRequestContext } from '@playwright/test';
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

/** A seat of a seat plan's short form: where it is, its ticket group, its row and number. */
export interface Seat {
  x: number;
  y: number;
  si: number;
  tg: number;
  r: string;
  n: string;
}

/** Another buyer, in its own request context, holds one seat the server says is selectable. */
export async function holdOneSeat(request: APIRequestContext, presentationId: number) {
  const p = (await (await request.get(`/api/presentations/${presentationId}`)).json())
    .presentation as { venueId: number; seatplanId: number };
  const plan = await request.post(
    `/api/seats/seatplanV2?venueId=${p.venueId}&seatplanId=${p.seatplanId}`,
    { data: { recaptchaToken: 'kupa-test-captcha' } },
  );
  const seats = (await plan.json()).seatplan.seats as Seat[];
  const status = await request.get(`/api/seats/seats-statusV2?presentationId=${presentationId}`);
  const free = (
    (await status.json()).seats as Array<Seat & { isAvailable: boolean; isBlocked: boolean }>
  )
    .filter((s) => s.isAvailable && !s.isBlocked)
    .map((s) => seats.find((x) => x.x === s.x && x.y === s.y && x.si === s.si))
    .find((s) => s !== undefined);
  expect(free, 'a selectable seat').toBeDefined();
  const lock = await request.put('/api/seats/lock-seat', {
    data: {
      recaptchaToken: 'kupa-test-captcha',
      seat: {
        PresentationId: presentationId,
        VenueId: p.venueId,
        VenueSeatplanId: p.seatplanId,
        VenueSectionId: free!.si,
        TicketGroupId: free!.tg,
        XCoordinate: free!.x,
        YCoordinate: free!.y,
      },
    },
  });
  expect(lock.status(), await lock.text()).toBe(200);
  return free!;
}
