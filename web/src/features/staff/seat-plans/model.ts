// The seat-plan editor's model (issue 18 item 4, decision 0068), pure: the plan being drawn, the
// selection and focus, and the last steps for undo, as one reducer over named actions. Its
// geometry works in the plan's grid cells, as the server and the buyer's seat map do: x across
// (left to right as drawn, the screen at the top), y front to back; seats stand at 1 <= x < width
// and 1 <= y < height. A row stands on a line (its y before any curve): the seats of one row are
// one row for the seating rules however it curves. The editor does not judge the plan's rules
// (sofas, companions, names): the server does on save and points at the seat it refuses.
export type SeatFlag = 'premium' | 'wheelchair' | 'companion' | 'limitedView';
export const SEAT_FLAGS: readonly SeatFlag[] = [
  'premium',
  'wheelchair',
  'companion',
  'limitedView',
];

export interface EditorSeat {
  id: string;
  x: number;
  y: number;
  name: string;
  premium: boolean;
  wheelchair: boolean;
  companion: boolean;
  limitedView: boolean;
  /** Seats of one section with the same number share a sofa. */
  sofa: number | null;
  attributes: string;
}

export interface EditorRow {
  id: string;
  name: string;
  line: number;
  /** Left to right. */
  seats: EditorSeat[];
}

export type SectionKind = 'reserved' | 'ga';

export interface EditorSection {
  id: string;
  name: string;
  nameEn: string;
  kind: SectionKind;
  ticketGroupId: number;
  priceLevel: number;
  /** A GA area's places. */
  capacity: number;
  rows: EditorRow[];
}

export interface EditorScreen {
  label: string;
  labelEn: string;
  x: number;
  width: number;
}

export interface EditorPlan {
  name: string;
  width: number;
  height: number;
  screen: EditorScreen;
  sections: EditorSection[];
}

export interface EditorState {
  plan: EditorPlan;
  /** Plans before each step, the last one latest. */
  past: EditorPlan[];
  selected: readonly string[];
  /** The seat in the tab order (roving focus). */
  focus: string | null;
  /** The section new rows go to. */
  section: string | null;
  /** Ids are drawn from this counter, so the reducer stays pure. */
  nextId: number;
  /** Steps since the plan was opened or saved. */
  changed: boolean;
}

/** How many steps undo goes back. */
export const UNDO_DEPTH = 50;
export const MAX_CELLS = 200;

export interface NewSection {
  name: string;
  nameEn: string;
  kind: SectionKind;
  ticketGroupId: number;
  priceLevel: number;
  capacity: number;
}

export interface NewRow {
  name: string;
  count: number;
  x: number;
  y: number;
  /** Cells from one seat to the next: 1 is side by side (2 or more leaves a gap after each). */
  spacing: number;
  /** Seat 1 on the left (`ltr`) or on the right (`rtl`, as many Israeli halls number). */
  numbering: Numbering;
}

export type Numbering = 'ltr' | 'rtl';

export type Action =
  | { type: 'open'; plan: EditorPlan }
  | { type: 'plan'; name?: string; width?: number; height?: number }
  | { type: 'screen'; screen: Partial<EditorScreen> }
  | { type: 'addSection'; section: NewSection }
  | { type: 'editSection'; id: string; section: Partial<NewSection> }
  | { type: 'removeSection'; id: string }
  | { type: 'chooseSection'; id: string }
  | { type: 'addRow'; row: NewRow }
  | { type: 'curve'; row: string; depth: number }
  | { type: 'aisle'; row: string; after: number }
  | { type: 'renumber'; row: string; numbering: Numbering }
  | { type: 'renameRow'; row: string; name: string }
  | { type: 'removeRow'; row: string }
  | { type: 'select'; seat: string; add: boolean }
  | { type: 'selectRow'; row: string }
  | { type: 'clearSelection' }
  | { type: 'focus'; seat: string }
  | { type: 'mark'; flag: SeatFlag; on: boolean }
  | { type: 'pairSofa' }
  | { type: 'unpairSofa' }
  | { type: 'removeSeats' }
  | { type: 'undo' }
  | { type: 'saved'; plan: EditorPlan };

/** An empty plan, ready for its first section. */
export function emptyPlan(name: string): EditorPlan {
  return {
    name,
    width: 24,
    height: 16,
    screen: { label: 'מסך', labelEn: 'Screen', x: 4, width: 16 },
    sections: [],
  };
}

export function initialState(plan: EditorPlan): EditorState {
  return {
    plan,
    past: [],
    selected: [],
    focus: firstSeat(plan)?.id ?? null,
    section: plan.sections[0]?.id ?? null,
    nextId: maxId(plan) + 1,
    changed: false,
  };
}

function maxId(plan: EditorPlan): number {
  let max = 0;
  const see = (id: string) => {
    const n = Number(id.slice(1));
    if (Number.isFinite(n) && n > max) max = n;
  };
  for (const s of plan.sections) {
    see(s.id);
    for (const r of s.rows) {
      see(r.id);
      for (const k of r.seats) see(k.id);
    }
  }
  return max;
}

export function allSeats(plan: EditorPlan): EditorSeat[] {
  return plan.sections.flatMap((s) => s.rows.flatMap((r) => r.seats));
}

function firstSeat(plan: EditorPlan): EditorSeat | undefined {
  return allSeats(plan)[0];
}

/** Where a seat is: its section and row. */
export function placeOf(
  plan: EditorPlan,
  seatId: string,
): { section: EditorSection; row: EditorRow; seat: EditorSeat } | null {
  for (const section of plan.sections)
    for (const row of section.rows)
      for (const seat of row.seats) if (seat.id === seatId) return { section, row, seat };
  return null;
}

export function rowById(
  plan: EditorPlan,
  rowId: string,
): { section: EditorSection; row: EditorRow } | null {
  for (const section of plan.sections)
    for (const row of section.rows) if (row.id === rowId) return { section, row };
  return null;
}

/** Seat names 1..n in x order from the left (`ltr`) or from the right (`rtl`). */
export function numberSeats(count: number, numbering: Numbering, start = 1): string[] {
  return Array.from({ length: count }, (_, i) =>
    String(numbering === 'ltr' ? start + i : start + count - 1 - i),
  );
}

/** How the row's seats are numbered now: seat names rising to the left read `rtl`. */
export function numberingOf(row: EditorRow): Numbering {
  const numbers = row.seats.map((k) => Number(k.name));
  if (
    numbers.length > 1 &&
    numbers.every(Number.isFinite) &&
    numbers[0] > numbers[numbers.length - 1]
  )
    return 'rtl';
  return 'ltr';
}

/**
 * The y of each seat of a row curved by `depth` cells: the middle stays on the line and the ends
 * come `depth` cells nearer the screen (a negative depth: further), along a parabola.
 */
export function curveYs(count: number, line: number, depth: number): number[] {
  const centre = (count - 1) / 2;
  return Array.from({ length: count }, (_, i) => {
    if (centre === 0) return line;
    const t = (i - centre) / centre;
    return line - Math.round(depth * t * t);
  });
}

/**
 * The row with an aisle (one empty cell) after the seat numbered `after` — between it and the
 * seat numbered `after + 1`, whichever way the numbers run: the seats on the right of the gap
 * move one cell right. Unchanged when there are no such two seats.
 */
export function withAisle(row: EditorRow, after: number): EditorRow {
  const a = row.seats.find((k) => k.name === String(after));
  const b = row.seats.find((k) => k.name === String(after + 1));
  if (!a || !b) return row;
  const gapAt = Math.max(a.x, b.x);
  return { ...row, seats: row.seats.map((k) => (k.x >= gapAt ? { ...k, x: k.x + 1 } : k)) };
}

/** The smallest plan that holds every seat (one free cell beyond the last), never smaller. */
function grown(plan: EditorPlan): EditorPlan {
  const seats = allSeats(plan);
  const width = Math.min(MAX_CELLS, Math.max(plan.width, ...seats.map((k) => k.x + 1)));
  const height = Math.min(MAX_CELLS, Math.max(plan.height, ...seats.map((k) => k.y + 1)));
  return width === plan.width && height === plan.height ? plan : { ...plan, width, height };
}

function mapRows(plan: EditorPlan, f: (row: EditorRow, section: EditorSection) => EditorRow) {
  return {
    ...plan,
    sections: plan.sections.map((s) => ({ ...s, rows: s.rows.map((r) => f(r, s)) })),
  };
}

function mapSeats(plan: EditorPlan, f: (seat: EditorSeat) => EditorSeat): EditorPlan {
  return mapRows(plan, (r) => ({ ...r, seats: r.seats.map(f) }));
}

/** A step that changes the plan: the one before is kept for undo. */
function step(state: EditorState, plan: EditorPlan, more: Partial<EditorState> = {}): EditorState {
  if (plan === state.plan) return { ...state, ...more };
  return {
    ...state,
    ...more,
    plan,
    past: [...state.past, state.plan].slice(-UNDO_DEPTH),
    changed: true,
  };
}

const clampCells = (n: number, low = 2) =>
  Math.min(MAX_CELLS, Math.max(low, Math.round(Number.isFinite(n) ? n : low)));

export function reducer(state: EditorState, action: Action): EditorState {
  const { plan } = state;
  switch (action.type) {
    case 'open':
    case 'saved':
      return {
        ...initialState(action.plan),
        nextId: Math.max(state.nextId, maxId(action.plan) + 1),
      };
    case 'plan':
      return step(state, {
        ...plan,
        name: action.name ?? plan.name,
        width: action.width === undefined ? plan.width : clampCells(action.width),
        height: action.height === undefined ? plan.height : clampCells(action.height),
      });
    case 'screen': {
      const screen = { ...plan.screen, ...action.screen };
      screen.x = Math.max(0, Math.min(plan.width - 1, Math.round(screen.x)));
      screen.width = Math.max(1, Math.min(plan.width - screen.x, Math.round(screen.width)));
      return step(state, { ...plan, screen });
    }
    case 'addSection': {
      const id = `s${state.nextId}`;
      const section: EditorSection = { id, ...action.section, rows: [] };
      return step(
        state,
        { ...plan, sections: [...plan.sections, section] },
        { nextId: state.nextId + 1, section: id },
      );
    }
    case 'editSection':
      return step(state, {
        ...plan,
        sections: plan.sections.map((s) =>
          s.id === action.id
            ? { ...s, ...action.section, rows: action.section.kind === 'ga' ? [] : s.rows }
            : s,
        ),
      });
    case 'removeSection': {
      const sections = plan.sections.filter((s) => s.id !== action.id);
      return step(
        state,
        { ...plan, sections },
        {
          section: sections[0]?.id ?? null,
          selected: [],
          focus: firstSeat({ ...plan, sections })?.id ?? null,
        },
      );
    }
    case 'chooseSection':
      return { ...state, section: action.id };
    case 'addRow': {
      const section = plan.sections.find((s) => s.id === state.section && s.kind === 'reserved');
      const r = action.row;
      const count = Math.max(1, Math.min(MAX_CELLS, Math.round(r.count)));
      const spacing = Math.max(1, Math.round(r.spacing));
      if (!section) return state;
      let next = state.nextId;
      const names = numberSeats(count, r.numbering);
      const row: EditorRow = {
        id: `r${next++}`,
        name: r.name,
        line: r.y,
        seats: names.map((name, i) => ({
          id: `k${next++}`,
          x: r.x + i * spacing,
          y: r.y,
          name,
          premium: false,
          wheelchair: false,
          companion: false,
          limitedView: false,
          sofa: null,
          attributes: '',
        })),
      };
      const sections = plan.sections.map((s) =>
        s.id === section.id ? { ...s, rows: [...s.rows, row] } : s,
      );
      return step(state, grown({ ...plan, sections }), {
        nextId: next,
        selected: row.seats.map((k) => k.id),
        focus: row.seats[0].id,
      });
    }
    case 'curve':
      return step(
        state,
        grown(
          mapRows(plan, (row) => {
            if (row.id !== action.row) return row;
            const ys = curveYs(row.seats.length, row.line, action.depth);
            return { ...row, seats: row.seats.map((k, i) => ({ ...k, y: Math.max(1, ys[i]) })) };
          }),
        ),
      );
    case 'aisle':
      return step(
        state,
        grown(mapRows(plan, (row) => (row.id === action.row ? withAisle(row, action.after) : row))),
      );
    case 'renumber':
      return step(
        state,
        mapRows(plan, (row) => {
          if (row.id !== action.row) return row;
          const names = numberSeats(row.seats.length, action.numbering);
          return { ...row, seats: row.seats.map((k, i) => ({ ...k, name: names[i] })) };
        }),
      );
    case 'renameRow':
      return step(
        state,
        mapRows(plan, (row) => (row.id === action.row ? { ...row, name: action.name } : row)),
      );
    case 'removeRow': {
      const next = {
        ...plan,
        sections: plan.sections.map((s) => ({
          ...s,
          rows: s.rows.filter((r) => r.id !== action.row),
        })),
      };
      return step(state, next, { selected: [], focus: firstSeat(next)?.id ?? null });
    }
    case 'select': {
      const has = state.selected.includes(action.seat);
      const selected = action.add
        ? has
          ? state.selected.filter((s) => s !== action.seat)
          : [...state.selected, action.seat]
        : [action.seat];
      const place = placeOf(plan, action.seat);
      return {
        ...state,
        selected,
        focus: action.seat,
        section: place?.section.id ?? state.section,
      };
    }
    case 'selectRow': {
      const found = rowById(plan, action.row);
      if (!found) return state;
      return { ...state, selected: found.row.seats.map((k) => k.id), section: found.section.id };
    }
    case 'clearSelection':
      return { ...state, selected: [] };
    case 'focus':
      return { ...state, focus: action.seat };
    case 'mark': {
      const chosen = new Set(state.selected);
      return step(
        state,
        mapSeats(plan, (k) => (chosen.has(k.id) ? { ...k, [action.flag]: action.on } : k)),
      );
    }
    case 'pairSofa': {
      const pair = sofaPair(plan, state.selected);
      if (!pair) return state;
      const number =
        Math.max(0, ...pair.section.rows.flatMap((r) => r.seats.map((k) => k.sofa ?? 0))) + 1;
      const ids = new Set(pair.seats.map((k) => k.id));
      return step(
        state,
        mapSeats(plan, (k) => (ids.has(k.id) ? { ...k, sofa: number } : k)),
      );
    }
    case 'unpairSofa': {
      const chosen = new Set(state.selected);
      // A sofa goes whole: its other seat too.
      const sofas = new Set<string>();
      for (const s of plan.sections)
        for (const r of s.rows)
          for (const k of r.seats)
            if (chosen.has(k.id) && k.sofa !== null) sofas.add(`${s.id}:${k.sofa}`);
      return step(
        state,
        mapRows(plan, (row, section) => ({
          ...row,
          seats: row.seats.map((k) =>
            k.sofa !== null && sofas.has(`${section.id}:${k.sofa}`) ? { ...k, sofa: null } : k,
          ),
        })),
      );
    }
    case 'removeSeats': {
      const chosen = new Set(state.selected);
      const next = {
        ...plan,
        sections: plan.sections.map((s) => ({
          ...s,
          rows: s.rows
            .map((r) => ({ ...r, seats: r.seats.filter((k) => !chosen.has(k.id)) }))
            .filter((r) => r.seats.length > 0),
        })),
      };
      return step(state, next, { selected: [], focus: firstSeat(next)?.id ?? null });
    }
    case 'undo': {
      const previous = state.past[state.past.length - 1];
      if (!previous) return state;
      const ids = new Set(allSeats(previous).map((k) => k.id));
      return {
        ...state,
        plan: previous,
        past: state.past.slice(0, -1),
        selected: state.selected.filter((s) => ids.has(s)),
        focus:
          state.focus && ids.has(state.focus) ? state.focus : (firstSeat(previous)?.id ?? null),
        section: previous.sections.some((s) => s.id === state.section)
          ? state.section
          : (previous.sections[0]?.id ?? null),
        changed: state.past.length > 1,
      };
    }
  }
}

/** The two selected seats as a sofa could be: one section, one row, the same y, next x. */
export function sofaPair(
  plan: EditorPlan,
  selected: readonly string[],
): { section: EditorSection; seats: [EditorSeat, EditorSeat] } | null {
  if (selected.length !== 2) return null;
  const a = placeOf(plan, selected[0]);
  const b = placeOf(plan, selected[1]);
  if (!a || !b || a.row.id !== b.row.id) return null;
  if (a.seat.y !== b.seat.y || Math.abs(a.seat.x - b.seat.x) !== 1) return null;
  return { section: a.section, seats: [a.seat, b.seat] };
}

export type Direction = 'left' | 'right' | 'up' | 'down';

/**
 * The seat an arrow key moves to: left and right along the seat's own row (its line, curved or
 * not), up and down to the nearest row line that way, the seat closest in x. The drawing does
 * not mirror in Hebrew, so directions are the picture's.
 */
export function neighbour(plan: EditorPlan, fromId: string, direction: Direction): string | null {
  const from = placeOf(plan, fromId);
  if (!from) return null;
  const rows = plan.sections.flatMap((s) => s.rows);
  let best: string | null = null;
  let bestScore = Infinity;
  for (const row of rows) {
    for (const seat of row.seats) {
      if (seat.id === fromId) continue;
      const dx = seat.x - from.seat.x;
      const dLine = row.line - from.row.line;
      let score: number;
      if (direction === 'left' || direction === 'right') {
        if (dLine !== 0 || (direction === 'left' ? dx >= 0 : dx <= 0)) continue;
        score = Math.abs(dx);
      } else {
        if (direction === 'up' ? dLine >= 0 : dLine <= 0) continue;
        score = Math.abs(dLine) * 10_000 + Math.abs(dx);
      }
      if (score < bestScore) {
        bestScore = score;
        best = seat.id;
      }
    }
  }
  return best;
}

/** A free cell for the next row: under the last row, two lines back, from x 2. */
export function nextRowPlace(plan: EditorPlan): { x: number; y: number } {
  const seats = allSeats(plan);
  if (seats.length === 0) return { x: 2, y: 2 };
  const lastLine = Math.max(...plan.sections.flatMap((s) => s.rows.map((r) => r.line)));
  const minX = Math.min(...seats.map((k) => k.x));
  return { x: minX, y: Math.min(MAX_CELLS - 1, lastLine + 2) };
}

/** The next row's name: one more than the last numeric row name of the section, else 1. */
export function nextRowName(section: EditorSection | undefined): string {
  const numbers = (section?.rows ?? []).map((r) => Number(r.name)).filter(Number.isFinite);
  return String(numbers.length ? Math.max(...numbers) + 1 : 1);
}

/** Counts for the editor's summary line. */
export function totals(plan: EditorPlan): { seats: number; rows: number; gaPlaces: number } {
  return {
    seats: allSeats(plan).length,
    rows: plan.sections.reduce((n, s) => n + s.rows.length, 0),
    gaPlaces: plan.sections.filter((s) => s.kind === 'ga').reduce((n, s) => n + s.capacity, 0),
  };
}
