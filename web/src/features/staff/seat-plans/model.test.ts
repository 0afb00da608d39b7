import { describe, expect, it } from 'vitest';
import { fieldTarget, fromDoc, toDoc } from './doc';
import {
  curveYs,
  emptyPlan,
  initialState,
  neighbour,
  numberSeats,
  numberingOf,
  reducer,
  withAisle,
  type Action,
  type EditorState,
  type NewRow,
} from './model';

const section = {
  name: 'אולם',
  nameEn: 'Stalls',
  kind: 'reserved' as const,
  ticketGroupId: 1,
  priceLevel: 1,
  capacity: 0,
};

function row(over: Partial<NewRow> = {}): NewRow {
  return { name: '1', count: 6, x: 2, y: 2, spacing: 1, numbering: 'ltr', ...over };
}

function run(...actions: Action[]): EditorState {
  return actions.reduce(reducer, initialState(emptyPlan('Hall')));
}

const names = (s: EditorState, r = 0) => s.plan.sections[0].rows[r].seats.map((k) => k.name);
const xs = (s: EditorState, r = 0) => s.plan.sections[0].rows[r].seats.map((k) => k.x);
const ys = (s: EditorState, r = 0) => s.plan.sections[0].rows[r].seats.map((k) => k.y);

describe('the seat-plan editor', () => {
  it('adds a row of N seats from its start, spaced, numbered either way', () => {
    const s = run({ type: 'addSection', section }, { type: 'addRow', row: row() });
    expect(xs(s)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(ys(s)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(names(s)).toEqual(['1', '2', '3', '4', '5', '6']);
    // The new row is selected, so it can be marked at once.
    expect(s.selected).toHaveLength(6);
    const rtl = run(
      { type: 'addSection', section },
      { type: 'addRow', row: row({ numbering: 'rtl', spacing: 2, count: 3 }) },
    );
    expect(xs(rtl)).toEqual([2, 4, 6]);
    expect(names(rtl)).toEqual(['3', '2', '1']);
    expect(numberingOf(rtl.plan.sections[0].rows[0])).toBe('rtl');
  });

  it('grows the plan to hold a row drawn past its edge, up to 200 cells', () => {
    const s = run(
      { type: 'addSection', section },
      { type: 'addRow', row: row({ x: 20, count: 10 }) },
    );
    expect(s.plan.width).toBe(30);
    const big = run({ type: 'plan', width: 900, height: 1 });
    expect([big.plan.width, big.plan.height]).toEqual([200, 2]);
  });

  it('needs a reserved section to add a row to', () => {
    const none = run({ type: 'addRow', row: row() });
    expect(none.plan.sections).toEqual([]);
    const ga = run(
      { type: 'addSection', section: { ...section, kind: 'ga', capacity: 50 } },
      { type: 'addRow', row: row() },
    );
    expect(ga.plan.sections[0].rows).toEqual([]);
  });

  it('curves a row: the ends come nearer the screen, the middle stays on the line', () => {
    expect(curveYs(5, 6, 2)).toEqual([4, 5, 6, 5, 4]);
    expect(curveYs(4, 6, -1)).toEqual([7, 6, 6, 7]);
    expect(curveYs(1, 6, 3)).toEqual([6]);
    const s = run(
      { type: 'addSection', section },
      { type: 'addRow', row: row({ y: 4, count: 7 }) },
      { type: 'curve', row: 'r2', depth: 2 },
    );
    expect(ys(s)).toEqual([2, 3, 4, 4, 4, 3, 2]);
    // The row keeps its line: it is still one row for the seating rules.
    expect(s.plan.sections[0].rows[0].line).toBe(4);
    // Straightened again.
    expect(ys(reducer(s, { type: 'curve', row: 'r2', depth: 0 }))).toEqual([4, 4, 4, 4, 4, 4, 4]);
  });

  it('puts an aisle between seat k and k + 1 whichever way the numbers run', () => {
    const ltr = run(
      { type: 'addSection', section },
      { type: 'addRow', row: row() },
      { type: 'aisle', row: 'r2', after: 2 },
    );
    expect(xs(ltr)).toEqual([2, 3, 5, 6, 7, 8]);
    const rtl = run(
      { type: 'addSection', section },
      { type: 'addRow', row: row({ numbering: 'rtl' }) },
      { type: 'aisle', row: 'r2', after: 2 },
    );
    // Seats 6..1 from the left: the gap falls between 3 and 2.
    expect(names(rtl)).toEqual(['6', '5', '4', '3', '2', '1']);
    expect(xs(rtl)).toEqual([2, 3, 4, 5, 7, 8]);
    // No seat 9: nothing moves.
    const r = ltr.plan.sections[0].rows[0];
    expect(withAisle(r, 9)).toBe(r);
  });

  it('renumbers a row left to right or right to left', () => {
    const s = run(
      { type: 'addSection', section },
      { type: 'addRow', row: row({ count: 4 }) },
      { type: 'renumber', row: 'r2', numbering: 'rtl' },
    );
    expect(names(s)).toEqual(['4', '3', '2', '1']);
    expect(numberSeats(3, 'ltr', 5)).toEqual(['5', '6', '7']);
  });

  it('selects by click, adds by shift-click, and marks the selection', () => {
    let s = run({ type: 'addSection', section }, { type: 'addRow', row: row({ count: 4 }) });
    s = reducer(s, { type: 'select', seat: 'k3', add: false });
    s = reducer(s, { type: 'select', seat: 'k4', add: true });
    expect(s.selected).toEqual(['k3', 'k4']);
    s = reducer(s, { type: 'mark', flag: 'wheelchair', on: true });
    const seats = s.plan.sections[0].rows[0].seats;
    expect(seats.map((k) => k.wheelchair)).toEqual([true, true, false, false]);
    // Shift-click on a chosen seat lets it go.
    s = reducer(s, { type: 'select', seat: 'k4', add: true });
    expect(s.selected).toEqual(['k3']);
  });

  it('pairs two seats side by side as a sofa, and unpairs the whole sofa', () => {
    let s = run({ type: 'addSection', section }, { type: 'addRow', row: row({ count: 4 }) });
    s = reducer(reducer(s, { type: 'select', seat: 'k3', add: false }), {
      type: 'select',
      seat: 'k5',
      add: true,
    });
    // Not side by side: nothing happens.
    expect(reducer(s, { type: 'pairSofa' })).toBe(s);
    s = reducer(reducer(s, { type: 'select', seat: 'k3', add: false }), {
      type: 'select',
      seat: 'k4',
      add: true,
    });
    s = reducer(s, { type: 'pairSofa' });
    s = reducer(reducer(s, { type: 'select', seat: 'k5', add: false }), {
      type: 'select',
      seat: 'k6',
      add: true,
    });
    s = reducer(s, { type: 'pairSofa' });
    expect(s.plan.sections[0].rows[0].seats.map((k) => k.sofa)).toEqual([1, 1, 2, 2]);
    s = reducer(reducer(s, { type: 'select', seat: 'k3', add: false }), { type: 'unpairSofa' });
    expect(s.plan.sections[0].rows[0].seats.map((k) => k.sofa)).toEqual([null, null, 2, 2]);
  });

  it('removes seats and undoes the last steps', () => {
    let s = run({ type: 'addSection', section }, { type: 'addRow', row: row({ count: 3 }) });
    const drawn = s.plan;
    s = reducer(reducer(s, { type: 'select', seat: 'k4', add: false }), { type: 'removeSeats' });
    expect(names(s)).toEqual(['1', '3']);
    s = reducer(s, { type: 'undo' });
    expect(s.plan).toBe(drawn);
    s = reducer(reducer(s, { type: 'undo' }), { type: 'undo' });
    expect(s.plan.sections).toEqual([]);
    expect(s.changed).toBe(false);
    expect(reducer(s, { type: 'undo' })).toBe(s);
  });

  it('moves focus along a curved row and to the nearest seat of the next row', () => {
    const s = run(
      { type: 'addSection', section },
      { type: 'addRow', row: row({ y: 4, count: 5 }) },
      { type: 'curve', row: 'r2', depth: 1 },
      { type: 'addRow', row: row({ name: '2', y: 6, x: 3, count: 3 }) },
    );
    expect(neighbour(s.plan, 'k3', 'right')).toBe('k4');
    expect(neighbour(s.plan, 'k4', 'left')).toBe('k3');
    expect(neighbour(s.plan, 'k3', 'left')).toBeNull();
    expect(neighbour(s.plan, 'k5', 'down')).toBe('k10');
    expect(neighbour(s.plan, 'k10', 'up')).toBe('k5');
  });

  it('goes to and from the server shape, leaving false flags out', () => {
    let s = run(
      { type: 'addSection', section },
      { type: 'addRow', row: row({ count: 2 }) },
      { type: 'addSection', section: { ...section, name: 'דשא', kind: 'ga', capacity: 80 } },
    );
    s = reducer(reducer(s, { type: 'select', seat: 'k3', add: false }), {
      type: 'mark',
      flag: 'premium',
      on: true,
    });
    const doc = toDoc(s.plan);
    expect(doc.sections[0].rows?.[0].seats).toEqual([
      { x: 2, y: 2, name: '1', premium: true },
      { x: 3, y: 2, name: '2' },
    ]);
    expect(doc.sections[1]).toMatchObject({ kind: 'ga', capacity: 80, rows: [] });
    const back = fromDoc(doc);
    expect(toDoc(back)).toEqual(doc);
  });

  it("finds the seat, row or section a server's field names", () => {
    const s = run({ type: 'addSection', section }, { type: 'addRow', row: row({ count: 3 }) });
    expect(fieldTarget(s.plan, 'plan.sections[0].rows[0].seats[2]')).toEqual({
      section: 's1',
      row: 'r2',
      seat: 'k5',
    });
    expect(fieldTarget(s.plan, 'plan.sections[0].capacity')).toEqual({
      section: 's1',
      row: undefined,
      seat: undefined,
    });
    expect(fieldTarget(s.plan, 'plan.width')).toEqual({});
  });
});
