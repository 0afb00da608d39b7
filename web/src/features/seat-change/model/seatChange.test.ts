import { describe, expect, it } from 'vitest';
import {
  changeReducer,
  initialChange,
  marksOf,
  modifyBody,
  movableTickets,
  summaryOf,
  type ChangeState,
  type PickedSeat,
} from './seatChange';

const seats = [
  { line: 1, presentationId: 7, sectionId: 1, x: 3, y: 5, row: '5', seat: '3' },
  { line: 2, presentationId: 7, sectionId: 1, x: 4, y: 5, row: '5', seat: '4' },
  { line: 3, presentationId: 7, sectionId: 1, x: 5, y: 5, row: '5', seat: '5', cancelledAt: 'x' },
  { line: 4, presentationId: 8, sectionId: 1, x: 3, y: 5, row: '5', seat: '3' },
  { line: 5, presentationId: 7, sectionId: 9, x: 1, y: 0, row: '', seat: '1' },
];
// Section 9 is general admission: its places are not on the map.
const groupOf = (key: string) => (key.startsWith('9:') ? null : 1);
const free = (x: number, tg = 1): PickedSeat => ({
  sectionId: 1,
  x,
  y: 8,
  row: '8',
  seat: String(x),
  ticketGroupId: tg,
});
const start = () => initialChange(movableTickets(seats, 7, groupOf));
const run = (state: ChangeState, ...actions: Parameters<typeof changeReducer>[1][]) =>
  actions.reduce(changeReducer, state);

describe('the seat-change model', () => {
  it('offers the live tickets of the presentation on the map, numbered', () => {
    const tickets = movableTickets(seats, 7, groupOf);
    expect(tickets.map((t) => [t.line, t.tag])).toEqual([
      [1, '1'],
      [2, '2'],
    ]);
  });

  it('asks which ticket moves before a free seat is taken, when there are several', () => {
    const s = run(start(), { type: 'tapSeat', seat: free(10) });
    expect(s.hint).toBe('pickTicketFirst');
    expect(s.moves.size).toBe(0);
  });

  it('moves the picked ticket (picked by tapping its seat) and then waits for the next pick', () => {
    const s = run(
      start(),
      { type: 'tapSeat', seat: { ...free(4), y: 5 } },
      { type: 'tapSeat', seat: free(10) },
    );
    expect([...s.moves.keys()]).toEqual([2]);
    expect(s.picked).toBeNull();
    // A second free seat without a new pick moves nothing.
    const again = run(s, { type: 'tapSeat', seat: free(11) });
    expect(again.hint).toBe('pickTicketFirst');
    expect(summaryOf(again).map((m) => [m.ticket.line, m.to.x])).toEqual([[2, 10]]);
  });

  it('moves several tickets at once, and sends them in ticket order', () => {
    const s = run(
      start(),
      { type: 'pickTicket', line: 2 },
      { type: 'tapSeat', seat: free(11) },
      { type: 'pickTicket', line: 1 },
      { type: 'tapSeat', seat: free(10) },
    );
    expect(modifyBody('R1', 'pay-1', s)).toEqual({
      resId: 'R1',
      lastTransactionId: 'pay-1',
      tickets: [
        { presentationId: 7, sectionId: 1, x: 3, y: 5, newSeat: { sectionId: 1, x: 10, y: 8 } },
        { presentationId: 7, sectionId: 1, x: 4, y: 5, newSeat: { sectionId: 1, x: 11, y: 8 } },
      ],
    });
  });

  it('refuses a seat of other tickets at once, and gives a chosen seat back on a second tap', () => {
    const one = run(start(), { type: 'pickTicket', line: 1 });
    expect(run(one, { type: 'tapSeat', seat: free(10, 2) }).hint).toBe('otherTickets');
    const moved = run(one, { type: 'tapSeat', seat: free(10) });
    const back = run(moved, { type: 'tapSeat', seat: free(10) });
    expect(back.moves.size).toBe(0);
    expect(back.picked).toBe(1);
    expect(run(moved, { type: 'undo', line: 1 }).moves.size).toBe(0);
  });

  it('drops a new seat someone else took, and says so', () => {
    const moved = run(
      start(),
      { type: 'pickTicket', line: 1 },
      { type: 'tapSeat', seat: free(10) },
    );
    const lost = run(moved, { type: 'seatsLost', keys: ['1:10:8'] });
    expect(lost.moves.size).toBe(0);
    expect(lost.hint).toBe('seatTaken');
    expect(run(moved, { type: 'seatsLost', keys: ['1:99:8'] })).toBe(moved);
  });

  it('picks a lone ticket by itself', () => {
    const s = initialChange(movableTickets(seats, 8, groupOf));
    expect(s.picked).toBe(4);
    const moved = run(s, { type: 'tapSeat', seat: free(10) }, { type: 'tapSeat', seat: free(12) });
    expect(summaryOf(moved).map((m) => m.to.x)).toEqual([12]);
  });

  it('marks the seats staying, being left and new, each with its ticket number', () => {
    const s = run(start(), { type: 'pickTicket', line: 1 }, { type: 'tapSeat', seat: free(10) });
    const marks = marksOf(s, (tone, tag) => `${tone} ${tag}`);
    expect(Object.fromEntries([...marks].map(([k, m]) => [k, m.label]))).toEqual({
      '1:3:5': 'leaving 1',
      '1:10:8': 'new 1',
      '1:4:5': 'yours 2',
    });
  });
});
