import { describe, expect, it } from 'vitest';
import { seatKey } from './seatAddress';

describe('seatKey', () => {
  it('keys a plan cell and a seat address of the same seat alike', () => {
    expect(seatKey({ si: 3, x: 7, y: 2 })).toBe('3:7:2');
    expect(seatKey({ sectionId: 3, x: 7, y: 2 })).toBe('3:7:2');
  });

  it('tells seats apart by each of section, x and y', () => {
    const keys = new Set(
      [
        { sectionId: 1, x: 2, y: 3 },
        { sectionId: 2, x: 1, y: 3 },
        { sectionId: 1, x: 3, y: 2 },
        { sectionId: 12, x: 3, y: 0 },
        { sectionId: 1, x: 23, y: 0 },
      ].map(seatKey),
    );
    expect(keys.size).toBe(5);
  });
});
