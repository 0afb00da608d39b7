import { describe, expect, it } from 'vitest';
import { staffKeys } from './api';
import { touches, type FiguresChanged } from './model';

const change = (over: Partial<FiguresChanged> = {}): FiguresChanged => ({
  dates: ['2030-06-13'],
  locations: [2],
  presentationIds: [41],
  all: false,
  ...over,
});

describe('which live views a figures event re-reads', () => {
  it('the calendar, the day’s locations and that location’s halls or features', () => {
    expect(touches(staffKeys.days('2030-05-29', '2030-06-26'), change())).toBe(true);
    expect(touches(staffKeys.locations('2030-06-13'), change())).toBe(true);
    expect(touches(staffKeys.drill('2030-06-13', 2, 'venue'), change())).toBe(true);
    expect(touches(staffKeys.drill('2030-06-13', 2, 'feature'), change())).toBe(true);
  });

  it('not another day, another location, nor the presentation box (it has its own stream)', () => {
    expect(touches(staffKeys.locations('2030-06-12'), change())).toBe(false);
    expect(touches(staffKeys.drill('2030-06-13', 3, 'venue'), change())).toBe(false);
    expect(touches(staffKeys.box('2030-06-13', 2, 'venue', 1), change())).toBe(false);
    expect(touches(staffKeys.filter, change())).toBe(false);
    expect(touches(['order', 'x'], change())).toBe(false);
  });

  it('every view when events were missed', () => {
    const all = change({ dates: [], locations: [], presentationIds: [], all: true });
    expect(touches(staffKeys.locations('2030-06-01'), all)).toBe(true);
    expect(touches(staffKeys.drill('2030-06-01', 9, 'feature'), all)).toBe(true);
    expect(touches(staffKeys.box('2030-06-01', 9, 'feature', 1), all)).toBe(false);
  });
});
