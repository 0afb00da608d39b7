import { afterEach, describe, expect, it } from 'vitest';
import { clearOrder, resumePlan, saveOrder } from './orderSession';
import { draftOfLines, loadTicketDraft, saveTicketDraft } from './ticketDraft';
import type { TicketLine } from './ticketLines';

const line = (x: number, ticketId: number | null, seniorId = ''): TicketLine => ({
  key: `11:${x}:0`,
  seat: { x, y: 0, sectionId: 11, rowName: '1', seatName: String(x + 1), seatKinds: [] },
  ticketGroupId: 1,
  ticketId,
  code: null,
  seniorId,
  ref1: '',
});

afterEach(() => window.sessionStorage.clear());

describe('the tickets the buyer is choosing', () => {
  it('are kept per presentation without an ID number, and forgotten after a paid order', () => {
    saveTicketDraft(77, draftOfLines([line(1, 101), line(2, 103, '123456782')], ''));
    saveTicketDraft(78, draftOfLines([line(1, 102)], ''));
    expect(loadTicketDraft(77)?.tickets).toEqual({ '11:1:0': 101, '11:2:0': 103 });
    expect(JSON.stringify({ ...window.sessionStorage })).not.toContain('123456782');
    // The confirmation step clears the order of its presentation (useOrderFlow), tickets too.
    clearOrder(77);
    expect(loadTicketDraft(77)).toBeNull();
    expect(loadTicketDraft(78)).not.toBeNull();
  });

  it('bring a reload on the tickets step back to the tickets step before its first post', () => {
    saveOrder(77, { step: 'tickets', choice: null, products: {}, customerInfo: null });
    const holds = { seats: [line(1, 101).seat], step: 'seats', expiresAt: '2026-07-14T09:10:00Z' };
    expect(
      resumePlan(holds, { step: 'tickets', choice: null, products: {}, customerInfo: null }, false)
        .step,
    ).toBe('tickets');
    expect(
      resumePlan(holds, { step: 'seats', choice: null, products: {}, customerInfo: null }, false)
        .step,
    ).toBe('seats');
  });
});
