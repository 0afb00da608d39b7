// Buying through the API as a second buyer would (its own request context, its own session):
// hold a seat the server says is selectable, price the cart, pay by card on the test gateway,
// commit. For specs whose subject is what a sale does elsewhere (live figures, the door).
import { expect, type APIRequestContext } from '@playwright/test';

export interface Seat {
  x: number;
  y: number;
  si: number;
  tg: number;
  /** Its row and number, as the map names it. */
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

/** The same buyer pays the held seat by card and commits: the order path, end to end. Answers
 * the reservation number. */
export async function buyHeldSeat(
  request: APIRequestContext,
  presentationId: number,
  seat: Seat,
): Promise<string> {
  return (await buyHeldSeatCommitted(request, presentationId, seat)).reservationNumber;
}

/** As [buyHeldSeat], answering the commit's answer (the reservation's identifier too). */
export async function buyHeldSeatCommitted(
  request: APIRequestContext,
  presentationId: number,
  seat: Seat,
): Promise<{ reservationNumber: string; reservationIdentifier: string }> {
  const groups = (
    await (await request.get(`/api/presentations/${presentationId}/ticketGroups`)).json()
  ).ticketGroups as Array<{
    id: number;
    tickets: Array<{ id: number; price: number; nameEn: string }>;
  }>;
  const regular = groups
    .find((g) => g.id === seat.tg)!
    .tickets.find((t) => t.nameEn.toLowerCase().includes('regular'))!;
  const cart = await request.post('/api/cart', {
    data: {
      cart: {
        presentations: [
          {
            presentationId,
            seats: [
              {
                XCoordinate: seat.x,
                YCoordinate: seat.y,
                VenueSectionId: seat.si,
                ticket: { ticketId: regular.id, amount: regular.price },
              },
            ],
          },
        ],
        customerInfo: {
          firstName: 'דנה',
          lastName: 'לוי',
          email: 'dana@example.com',
          verifyEmailAddress: 'dana@example.com',
          mobileNumber: '+972524318876',
          acceptedTerms: [1, 2, 3],
        },
      },
      step: 'customerInfo',
      locale: 'he',
    },
  });
  expect(cart.status(), await cart.text()).toBe(200);
  const total = (await cart.json()).cart.total as number;
  const form = await request.get(
    `/api/payment/form/he?presentationId=${presentationId}&total=${total}&recaptchaToken=kupa-test-captcha&method=card&numberOfPayments=1&saveCard=false`,
  );
  expect(form.status(), await form.text()).toBe(200);
  const paymentId = (await form.json()).paymentIdentifier as string;
  const year = (new Date().getFullYear() + 2) % 100;
  const paid = await request.post(`/pay/${paymentId}/card`, {
    form: { cardNumber: '4242 4242 4242 4242', expiry: `12/${year}`, cvv: '987', holderId: '' },
    maxRedirects: 0,
  });
  expect(paid.status(), await paid.text()).toBe(303);
  const commit = await request.post('/api/payment/commit', {
    data: {
      cart: { presentations: [{ presentationId }] },
      recaptchaToken: 'kupa-test-captcha',
    },
  });
  expect(commit.status(), await commit.text()).toBe(200);
  return (await commit.json()) as { reservationNumber: string; reservationIdentifier: string };
}
