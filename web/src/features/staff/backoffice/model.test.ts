import { describe, expect, it } from 'vitest';
import { diff, switchReason } from './model';

describe('the audit diff', () => {
  it('lists only the fields that changed', () => {
    expect(
      diff(
        { startsAt: '2030-06-12T10:00:00Z', venueId: 1, cancelledAt: null },
        { startsAt: '2030-06-12T12:00:00Z', venueId: 1, cancelledAt: null },
      ),
    ).toEqual([
      { field: 'startsAt', before: '2030-06-12T10:00:00Z', after: '2030-06-12T12:00:00Z' },
    ]);
  });

  it('lists every field set by an addition', () => {
    expect(diff(null, { venueId: 2, cancelledAt: null })).toEqual([
      { field: 'venueId', before: undefined, after: 2 },
    ]);
  });
});

describe('a switch reason', () => {
  it('says what the storefront answers, offline first', () => {
    expect(switchReason({ offline: false, advanceSales: true, open: true })).toBeNull();
    expect(switchReason({ offline: true, advanceSales: false, open: false })).toBe(
      'locationOffline',
    );
    expect(switchReason({ offline: false, advanceSales: false, open: false })).toBe(
      'noTicketsInChannel',
    );
    expect(switchReason({ offline: false, advanceSales: false, open: true })).toBe(
      'advanced_sales_not_allowed_by_outlet',
    );
  });
});
