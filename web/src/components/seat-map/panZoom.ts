// The seat map's drag and pinch, as pure arithmetic: which pointers are down, how far they moved,
// and where the scroll box must be so that the point under the fingers stays under them. The
// component only feeds pointer positions in and applies the answers.
import { SEAT_MAP_ZOOM_STEPS } from './seatModel';

export interface Point {
  x: number;
  y: number;
}

export interface Scroll {
  left: number;
  top: number;
}

export const MIN_ZOOM = SEAT_MAP_ZOOM_STEPS[0];
export const MAX_ZOOM = SEAT_MAP_ZOOM_STEPS[SEAT_MAP_ZOOM_STEPS.length - 1];

/** How far a pointer moves before a press becomes a drag (and no longer clicks a seat). */
export const DRAG_THRESHOLD_PX = 6;

export function clampZoom(zoom: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

/** The next zoom step up (+1) or down (-1) from any zoom, a pinched one included. */
export function stepZoom(zoom: number, direction: 1 | -1): number {
  const eps = 1e-3;
  const steps = [...SEAT_MAP_ZOOM_STEPS];
  const next =
    direction > 0 ? steps.find((s) => s > zoom + eps) : steps.reverse().find((s) => s < zoom - eps);
  return next ?? (direction > 0 ? MAX_ZOOM : MIN_ZOOM);
}

/**
 * The scroll that keeps the drawing's point that was under `from` (in the box's own pixels) under
 * `to`, after the zoom went from `fromZoom` to `toZoom`. With `from` equal to `to` it is a zoom
 * around that point; with equal zooms it is a pan by `to - from`.
 */
export function scrollAfter(
  scroll: Scroll,
  from: Point,
  to: Point,
  fromZoom: number,
  toZoom: number,
): Scroll {
  const ratio = toZoom / fromZoom;
  return {
    left: (scroll.left + from.x) * ratio - to.x,
    top: (scroll.top + from.y) * ratio - to.y,
  };
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const middle = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/** What a pointer move asks of the map. */
export type GestureStep =
  | { kind: 'pan'; from: Point; to: Point }
  | { kind: 'pinch'; from: Point; to: Point; scale: number };

/**
 * The pointers on the map. One pointer drags the hall; two pinch it, zooming by the change of
 * their distance around their centre (and panning as the centre moves). A press that never moved
 * past DRAG_THRESHOLD_PX stays a click.
 */
export class Gesture {
  private readonly pointers = new Map<number, Point>();
  private start: Point | null = null;
  /** The press moved enough (or a second finger came) to be a drag, not a click. */
  dragged = false;

  get count(): number {
    return this.pointers.size;
  }

  down(id: number, at: Point): void {
    if (this.pointers.size === 0) {
      this.start = at;
      this.dragged = false;
    }
    this.pointers.set(id, at);
    if (this.pointers.size > 1) this.dragged = true;
  }

  move(id: number, at: Point): GestureStep | null {
    const last = this.pointers.get(id);
    if (!last) return null;
    if (this.pointers.size === 1) {
      this.pointers.set(id, at);
      if (!this.dragged && this.start && distance(this.start, at) < DRAG_THRESHOLD_PX) return null;
      const from = this.dragged ? last : (this.start ?? last);
      this.dragged = true;
      return { kind: 'pan', from, to: at };
    }
    const other = [...this.pointers.entries()].find(([key]) => key !== id)?.[1];
    this.pointers.set(id, at);
    if (!other) return null;
    const before = distance(last, other);
    const after = distance(at, other);
    if (before === 0) return null;
    return {
      kind: 'pinch',
      from: middle(last, other),
      to: middle(at, other),
      scale: after / before,
    };
  }

  /** A pointer lifted or cancelled; the others go on (a pinch becomes a drag). */
  up(id: number): void {
    this.pointers.delete(id);
    if (this.pointers.size === 0) this.start = null;
  }
}
