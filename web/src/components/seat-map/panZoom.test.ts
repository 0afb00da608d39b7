import { describe, expect, it } from 'vitest';
import { clampZoom, DRAG_THRESHOLD_PX, Gesture, scrollAfter, stepZoom } from './panZoom';

describe('seat map drag and pinch arithmetic', () => {
  it('pans the opposite way to the finger: dragging right shows what is to the left', () => {
    const scroll = scrollAfter({ left: 200, top: 50 }, { x: 100, y: 100 }, { x: 130, y: 90 }, 2, 2);
    expect(scroll).toEqual({ left: 170, top: 60 });
  });

  it('zooms around a point: the drawing under it stays under it', () => {
    // At 1x, scrolled 0: the point 90 px in is the drawing's 90. At 3x it is drawn at 270, so
    // the box scrolls 180 to keep it 90 px in.
    const at = { x: 90, y: 40 };
    const scroll = scrollAfter({ left: 0, top: 0 }, at, at, 1, 3);
    expect(scroll).toEqual({ left: 180, top: 80 });
    // And back: zooming out around the same point returns to where it was.
    expect(scrollAfter(scroll, at, at, 3, 1)).toEqual({ left: 0, top: 0 });
  });

  it('keeps the zoom between the whole hall and the closest step, and steps from any zoom', () => {
    expect(clampZoom(0.4)).toBe(1);
    expect(clampZoom(9)).toBe(4);
    expect(clampZoom(2.3)).toBe(2.3);
    expect(stepZoom(1, 1)).toBe(1.5);
    expect(stepZoom(2.3, 1)).toBe(3);
    expect(stepZoom(2.3, -1)).toBe(2);
    expect(stepZoom(4, 1)).toBe(4);
    expect(stepZoom(1, -1)).toBe(1);
  });

  it('leaves a press that hardly moved a click, and makes a longer move a drag', () => {
    const g = new Gesture();
    g.down(1, { x: 10, y: 10 });
    expect(g.move(1, { x: 10 + DRAG_THRESHOLD_PX - 2, y: 11 })).toBeNull();
    expect(g.dragged).toBe(false);
    // Past the threshold: the whole way from the press is panned, not just the last bit.
    expect(g.move(1, { x: 30, y: 10 })).toEqual({
      kind: 'pan',
      from: { x: 10, y: 10 },
      to: { x: 30, y: 10 },
    });
    expect(g.dragged).toBe(true);
    expect(g.move(1, { x: 35, y: 12 })).toEqual({
      kind: 'pan',
      from: { x: 30, y: 10 },
      to: { x: 35, y: 12 },
    });
    g.up(1);
    g.down(1, { x: 0, y: 0 });
    expect(g.dragged).toBe(false);
  });

  it('pinches by the change of the two fingers’ distance, around their centre', () => {
    const g = new Gesture();
    g.down(1, { x: 100, y: 100 });
    g.down(2, { x: 200, y: 100 });
    expect(g.dragged).toBe(true);
    // Finger 2 moves out: the fingers are 150 px apart instead of 100.
    expect(g.move(2, { x: 250, y: 100 })).toEqual({
      kind: 'pinch',
      from: { x: 150, y: 100 },
      to: { x: 175, y: 100 },
      scale: 1.5,
    });
    // Lifting one finger leaves a drag with the other.
    g.up(2);
    expect(g.count).toBe(1);
    expect(g.move(1, { x: 90, y: 100 })).toMatchObject({ kind: 'pan' });
  });
});
