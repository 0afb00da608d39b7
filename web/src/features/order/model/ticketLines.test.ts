import { describe, expect, it } from 'vitest';
import type { LockedSeat, Ticket, TicketGroup } from '../../../lib/api/types';
import {
  applyCode,
  appliedCodes,
  isPlainTicket,
  linesPrice,
  lineTicket,
  removeCode,
  syncLines,
  ticketsForLine,
} from './ticketLines';
import { makeTicket } from '../../../test/fixtures';

const tk = (id: number, extra: Partial<Ticket> = {}): Ticket =>
  makeTicket(id, { price: id * 10, ...extra });
const groups: TicketGroup[] = [
  {
    id: 1,
    name: 'g',
    nameEn: 'g',
    isByCodeEnabled: true,
    voucherTickets: [],
    tickets: [tk(100, { memberOnly: true }), tk(101), tk(102)],
  },
  { id: 2, name: 'h', nameEn: 'h', isByCodeEnabled: true, voucherTickets: [], tickets: [tk(201)] },
];
const seat = (x: number, sectionId = 11, seatKinds: string[] = []): LockedSeat => ({
  x,
  y: 0,
  sectionId,
  rowName: '1',
  seatName: `${x}`,
  seatKinds,
});
const groupOf = (s: { sectionId: number }) => (s.sectionId === 11 ? 1 : 2);

describe('ticket lines', () => {
  it('give each new seat its group’s first plain ticket and keep earlier choices', () => {
    const lines = syncLines([], [seat(1), seat(2), seat(5, 12)], groupOf, groups);
    expect(lines.map((l) => l.ticketId)).toEqual([101, 101, 201]);
    const chosen = lines.map((l) => (l.key === '11:2:0' ? { ...l, ticketId: 102 } : l));
    const after = syncLines(chosen, [seat(2), seat(3)], groupOf, groups);
    expect(after.map((l) => [l.key, l.ticketId])).toEqual([
      ['11:2:0', 102],
      ['11:3:0', 101],
    ]);
  });

  it('fill the code’s group seats that have no code, and give the old tickets back on removal', () => {
    let lines = syncLines([], [seat(1), seat(2), seat(5, 12)], groupOf, groups);
    lines = lines.map((l) => (l.key === '11:2:0' ? { ...l, ticketId: 102 } : l));
    const code = { code: 'A', ticket: tk(112), label: '', labelEn: '' };
    const applied = applyCode(lines, code)!;
    expect(applied.map((l) => lineTicket(l, groups)?.id)).toEqual([112, 112, 201]);
    expect(appliedCodes(applied).map((c) => c.code)).toEqual(['A']);
    // A second code finds no seat of its group without a code.
    expect(applyCode(applied, { ...code, code: 'B' })).toBeNull();
    const removed = removeCode(applied, 'A');
    expect(removed.map((l) => lineTicket(l, groups)?.id)).toEqual([101, 102, 201]);
  });

  it('put a ticket that asks for a reference or covers several seats on one seat only', () => {
    const lines = syncLines([], [seat(1), seat(2)], groupOf, groups);
    const sofa = { code: 'S', ticket: tk(120, { multiplyFactor: 2 }), label: '', labelEn: '' };
    expect(applyCode(lines, sofa)!.map((l) => l.code?.code ?? null)).toEqual(['S', null]);
  });

  it('put a system voucher’s ticket on one seat only in an unpaid hold', () => {
    const lines = syncLines([], [seat(1), seat(2)], groupOf, groups);
    const voucher = { code: 'V', ticket: tk(130), label: '', labelEn: '', systemVoucher: true };
    const codes = (order?: { isHold: boolean }) =>
      applyCode(lines, voucher, order)!.map((l) => l.code?.code ?? null);
    expect(codes({ isHold: true })).toEqual(['V', null]);
    expect(codes()).toEqual(['V', 'V']);
  });

  it('never take a ticket tied to a kind of seat for a plain one', () => {
    expect(isPlainTicket(tk(108, { seatKind: 'wheelchair' }))).toBe(false);
    expect(isPlainTicket(tk(101))).toBe(true);
    // A group whose first ticket is tied gives a new seat its first untied one.
    const tied: TicketGroup[] = [
      { ...groups[0], tickets: [tk(108, { seatKind: 'wheelchair' }), tk(101)] },
    ];
    const [line] = syncLines([], [seat(1, 11, ['wheelchair'])], groupOf, tied);
    expect(line.ticketId).toBe(101);
  });

  describe('with tickets tied to a kind of seat', () => {
    const wheelchair = tk(108, { seatKind: 'wheelchair' });
    const companion = tk(109, { seatKind: 'companion', requiresTicketId: 108 });
    const tied: TicketGroup[] = [{ ...groups[0], tickets: [tk(101), wheelchair, companion] }];
    const place = seat(1, 11, ['wheelchair']);
    const beside = seat(2, 11, ['companion']);

    it('offer each seat only the tickets it serves', () => {
      const lines = syncLines([], [place, beside, seat(5)], groupOf, tied);
      expect(lines.map((l) => ticketsForLine(l, tied).map((t) => t.id))).toEqual([
        [101, 108],
        [101, 109],
        [101],
      ]);
    });

    it('ask again for a ticket the seat no longer serves, and never sell it', () => {
      let lines = syncLines([], [place, beside], groupOf, tied);
      lines = lines.map((l) => (l.key === '11:2:0' ? { ...l, ticketId: 109 } : l));
      expect(lineTicket(lines[1], tied)?.id).toBe(109);
      // The wheelchair place is released: seat 2 is an ordinary seat again.
      const after = syncLines(lines, [seat(2)], groupOf, tied);
      expect(after[0].ticketId).toBeNull();
      expect(lineTicket({ ...after[0], ticketId: 109 }, tied)).toBeUndefined();
    });

    it('put a code’s tied ticket only on the seats that serve it', () => {
      const lines = syncLines([], [place, beside], groupOf, tied);
      const code = { code: 'W', ticket: wheelchair, label: '', labelEn: '' };
      expect(applyCode(lines, code)!.map((l) => l.code?.code ?? null)).toEqual(['W', null]);
      expect(applyCode(lines.slice(1), code)).toBeNull();
    });
  });

  it('add up the tickets sold, a ticket for two seats once for every two lines', () => {
    const sofa = tk(202, { price: 12000, serviceCharge: 1000, multiplyFactor: 2 });
    const withSofa: TicketGroup[] = [
      { ...groups[0], tickets: [tk(101, { price: 4200, serviceCharge: 500 }), sofa] },
    ];
    let lines = syncLines([], [seat(1), seat(2), seat(3)], groupOf, withSofa);
    expect(linesPrice(lines, withSofa)).toEqual({ price: 12600, serviceCharge: 1500 });
    lines = lines.map((l) => (l.key === '11:3:0' ? l : { ...l, ticketId: 202 }));
    expect(linesPrice(lines, withSofa)).toEqual({ price: 16200, serviceCharge: 1500 });
  });
});
