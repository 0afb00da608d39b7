import { act, render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import '../../lib/i18n';
import { seatKey } from '../../lib/seatAddress';
import { makeSeat, makeSeatplan } from '../../test/fixtures';
import type { SeatState } from './seatModel';

// Counts the seats drawn: every seat the map draws (or draws again) asks for its kinds once.
const drawn = vi.hoisted(() => ({ count: 0 }));
vi.mock('./seatModel', async (original) => {
  const model = await original<typeof import('./seatModel')>();
  return {
    ...model,
    kindsOf: (...args: Parameters<typeof model.kindsOf>) => {
      drawn.count += 1;
      return model.kindsOf(...args);
    },
  };
});

const { SeatMap } = await import('./SeatMap');

// A hall of 10 × 6 seats.
const seats = Array.from({ length: 60 }, (_, i) => makeSeat(i % 10, Math.floor(i / 10)));
const plan = makeSeatplan(seats);
const allFree = new Map<string, SeatState>(seats.map((s) => [seatKey(s), 'available']));

describe('SeatMap', () => {
  it('draws again only the seats a new status answer changed, not the whole hall', async () => {
    const onSeatActivate = vi.fn();
    const { rerender } = render(
      <SeatMap plan={plan} states={allFree} onSeatActivate={onSeatActivate} />,
    );
    await waitFor(() =>
      expect(document.querySelectorAll('.seat-map__svg g.seat')).toHaveLength(60),
    );
    // Wait for the deferred drawing to settle, then count from there.
    await act(async () => {});
    drawn.count = 0;

    const taken = new Map(allFree);
    taken.set(seatKey(seats[23]), 'taken');
    rerender(<SeatMap plan={plan} states={taken} onSeatActivate={onSeatActivate} />);
    await waitFor(() =>
      expect(
        document.querySelector('.seat-map__svg .seat--taken'),
        'the seat the answer took is drawn taken',
      ).not.toBeNull(),
    );
    await act(async () => {});
    // The one seat that changed (a couple more for a seat whose place in the tab order moved).
    expect(drawn.count).toBeGreaterThan(0);
    expect(drawn.count).toBeLessThanOrEqual(3);
  });

  it('a click on a seat after its state changed passes the state it now shows', async () => {
    const onSeatActivate = vi.fn();
    const { rerender } = render(
      <SeatMap plan={plan} states={allFree} onSeatActivate={onSeatActivate} />,
    );
    const selected = new Map(allFree);
    selected.set(seatKey(seats[4]), 'selected');
    rerender(<SeatMap plan={plan} states={selected} onSeatActivate={onSeatActivate} />);
    const seat = await waitFor(() => {
      const el = document.querySelector<SVGGElement>('.seat-map__svg .seat--selected');
      expect(el).not.toBeNull();
      return el!;
    });
    act(() => seat.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    expect(onSeatActivate).toHaveBeenCalledWith(seats[4], 'selected');
  });
});
