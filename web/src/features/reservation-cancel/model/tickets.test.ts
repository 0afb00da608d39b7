import { describe, expect, it } from 'vitest';
import { linesToSend, ticketChoices } from './tickets';

describe('ticket choices', () => {
  it('keeps a ticket with its sub tickets as one choice', () => {
    const choices = ticketChoices([
      { line: 1, isSubTicket: false },
      { line: 2, isSubTicket: true },
      { line: 3, isSubTicket: false, cancelledAt: '2030-01-01T10:00:00Z' },
    ]);
    expect(choices.map((c) => [c.line, c.seats.length, c.cancelled])).toEqual([
      [1, 2, false],
      [3, 1, true],
    ]);
  });

  it('sends the whole order as null and a part as its main lines', () => {
    const choices = ticketChoices([
      { line: 1, isSubTicket: false },
      { line: 2, isSubTicket: false },
      { line: 3, isSubTicket: false, cancelledAt: 'x' },
    ]);
    expect(linesToSend(choices, new Set([1, 2]))).toBeNull();
    expect(linesToSend(choices, new Set([2]))).toEqual([2]);
    expect(linesToSend(choices, new Set())).toEqual([]);
  });
});
