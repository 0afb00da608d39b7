import { describe, expect, it } from 'vitest';
import type { Ticket, TicketGroup } from '../../lib/api/types';
import { applyCode, appliedCodes, lineTicket, removeCode, syncLines } from './ticketLines';

const base: Omit<Ticket, 'id' | 'ticketId' | 'name' | 'price'> = {
  ticketGroupId: 1,
  nameEn: '',
  oldPrice: null,
  serviceCharge: 0,
  currency: 'ILS',
  pricePolicyId: 1,
  minQuantity: 0,
  maxQuantity: 10,
  requiresTicketId: null,
  memberOnly: false,
  needsSeniorId: false,
  refPrompt: '',
  refPromptEn: '',
  loyaltyPointsPrice: null,
  isLoyaltyPointsRedemption: false,
  multiplyFactor: 1,
};
const tk = (id: number, extra: Partial<Ticket> = {}): Ticket => ({
  ...base,
  id,
  ticketId: id,
  name: `t${id}`,
  price: id * 10,
  ...extra,
});
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
const seat = (x: number, sectionId = 11) => ({
  x,
  y: 0,
  sectionId,
  rowName: '1',
  seatName: `${x}`,
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
});
