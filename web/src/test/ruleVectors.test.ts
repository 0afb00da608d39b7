// The rules the web app judges before the server does, run on the shared vectors in
// rules/vectors/*.json. The server runs the same files (crates/app/tests/rule_vectors.rs), so the
// two answers cannot drift apart.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  normaliseCustomerInfo,
  validateCustomerInfo,
  type CheckoutConfig,
  type CustomerInfo,
} from '../components/checkout/customerInfo';
import type { LockedSeat, Ticket, TicketGroup } from '../lib/api/types';
import {
  isAutoAssignable,
  lineProblem,
  subTickets,
  ticketFitsSeat,
  type TicketLine,
} from '../features/order/model/ticketLines';

const folder = join(dirname(fileURLToPath(import.meta.url)), '../../../rules/vectors');

type Vectors<Case, Extra = object> = Extra & { about: string; cases: (Case & { name: string })[] };

function vectors<Case, Extra = object>(name: string): Vectors<Case, Extra> {
  return JSON.parse(readFileSync(join(folder, name), 'utf8')) as Vectors<Case, Extra>;
}

/** `patch` over `base`, one level deep for the objects named in `deep` (as the Rust test does). */
function merged<T extends object>(base: T, patch: object | undefined, deep: string[] = []): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch ?? {})) {
    const inner = out[key];
    out[key] =
      deep.includes(key) && inner && typeof inner === 'object'
        ? { ...inner, ...(value as object) }
        : value;
  }
  return out as T;
}

describe('customer details (rules/vectors/customer_info.json)', () => {
  const doc = vectors<
    {
      config?: object;
      info?: object;
      problems: Record<string, string>;
      normalised?: Record<string, unknown>;
    },
    { defaults: { config: CheckoutConfig; info: CustomerInfo } }
  >('customer_info.json');
  it.each(doc.cases)('$name', (c) => {
    const config = merged(doc.defaults.config, c.config, ['customerInfo']);
    const info = merged(doc.defaults.info, c.info);
    expect(validateCustomerInfo(info, config)).toEqual(c.problems);
    const normalised: Record<string, unknown> = { ...normaliseCustomerInfo(info) };
    for (const [field, value] of Object.entries(c.normalised ?? {})) {
      expect(normalised[field], field).toEqual(value);
    }
  });
});

describe('auto-assigned tickets (rules/vectors/auto_assignable.json)', () => {
  const doc = vectors<{
    ticket: Pick<Ticket, 'multiplyFactor' | 'refPrompt'>;
    isSystemVoucher: boolean;
    isHold: boolean;
    expected: boolean;
  }>('auto_assignable.json');
  it.each(doc.cases)('$name', (c) => {
    expect(
      isAutoAssignable(c.ticket, { isSystemVoucher: c.isSystemVoucher, isHold: c.isHold }),
    ).toBe(c.expected);
  });
});

describe('tickets tied to a kind of seat (rules/vectors/ticket_fits_seat.json)', () => {
  const doc = vectors<{ ticketSeatKind: string | null; seatKinds: string[]; expected: boolean }>(
    'ticket_fits_seat.json',
  );
  it.each(doc.cases)('$name', (c) => {
    expect(ticketFitsSeat({ seatKind: c.ticketSeatKind }, { seatKinds: c.seatKinds })).toBe(
      c.expected,
    );
  });
});

describe('senior citizens’ IDs (rules/vectors/senior_id.json)', () => {
  const doc = vectors<{ id: string; expected: 'ok' | 'invalidSSN' | 'ilSenior_error' }>(
    'senior_id.json',
  );
  const senior = { id: 1, ticketGroupId: 1, needsSeniorId: true, refPrompt: '' } as Ticket;
  const groups = [{ id: 1, tickets: [senior] } as unknown as TicketGroup];
  const seat: LockedSeat = { sectionId: 1, x: 1, y: 1, rowName: '1', seatName: '1', seatKinds: [] };
  it.each(doc.cases)('$name', (c) => {
    const line: TicketLine = {
      key: '1:1:1',
      seat,
      ticketGroupId: 1,
      ticketId: 1,
      code: null,
      seniorId: c.id,
      ref1: '',
    };
    // The web asks for the ID's shape; the check digit is the server's to judge.
    expect(lineProblem(line, groups) === 'seniorId').toBe(c.expected === 'invalidSSN');
  });
});

describe('sub-tickets (rules/vectors/sub_tickets.json)', () => {
  const doc = vectors<{
    tickets: { id: number; multiplyFactor: number }[];
    lines: number[];
    expected: (number | null)[];
  }>('sub_tickets.json');
  it.each(doc.cases)('$name', (c) => {
    const factor = (id: number) => c.tickets.find((t) => t.id === id)?.multiplyFactor ?? 1;
    expect(subTickets(c.lines, factor)).toEqual(c.expected);
  });
});
