// The plan being drawn, as the buyer's seat map draws a hall (the same cells, seat shapes,
// sofas, row names and screen), with the editor's selection on top. One seat is in the tab
// order (roving focus): the arrow keys move along a row or to the next one, Space or Enter
// chooses a seat (adds it to the choice), Escape lets the choice go, Delete removes the chosen
// seats. A click chooses one seat, a shift-click adds or takes one away; a click on an empty
// cell picks where the next row starts. The drawing does not mirror in Hebrew.
import { useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { HallScreen, RowLabels, SofaBacks } from '../../../components/seat-map/HallParts';
import { SeatShape } from '../../../components/seat-map/SeatMap';
import {
  rowLabels,
  screenSpan,
  sofaSpans,
  SEAT_MAP_CELL as CELL,
  SEAT_MAP_LABEL_BAND as LABEL_BAND,
  SEAT_MAP_SCREEN_BAND as SCREEN_BAND,
  SEAT_MAP_SEAT as SEAT,
  type SeatKind,
} from '../../../components/seat-map/seatModel';
import '../../../components/seat-map/SeatMap.css';
import { localizedName } from '../../../lib/localized';
import { neighbour, type Action, type EditorSeat, type EditorState } from './model';

const KEY_DIRECTIONS = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
} as const;

function kindsOf(k: EditorSeat): SeatKind[] {
  const kinds: SeatKind[] = [];
  if (k.premium) kinds.push('premium');
  if (k.wheelchair) kinds.push('wheelchair');
  if (k.companion) kinds.push('companion');
  if (k.limitedView) kinds.push('limitedView');
  if (k.sofa !== null) kinds.push('sofa');
  return kinds;
}

export function EditorCanvas({
  state,
  dispatch,
  flagged,
  start,
  onPickCell,
}: {
  state: EditorState;
  dispatch: (a: Action) => void;
  /** The seat the server refused, ringed. */
  flagged: string | null;
  /** Where the next row starts, marked. */
  start: { x: number; y: number };
  onPickCell: (x: number, y: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const { plan, selected, focus } = state;
  const refs = useRef(new Map<string, SVGGElement>());
  const svg = useRef<SVGSVGElement>(null);
  const chosen = new Set(selected);
  const width = plan.width * CELL;
  const height = plan.height * CELL + SCREEN_BAND;
  const rows = plan.sections.flatMap((s) => s.rows.map((r) => ({ section: s, row: r })));
  const labels = rowLabels(
    rows.flatMap(({ row }) =>
      row.seats.map((k) => ({ x: k.x, y: k.y, r: row.name, gi: row.line })),
    ),
  );
  const screen = screenSpan(plan);
  const sofas = sofaSpans(
    rows.flatMap(({ section, row }) =>
      row.seats.map((k) => ({
        sofa: k.sofa === null ? null : `${section.id}:${k.sofa}`,
        x: k.x,
        y: k.y,
      })),
    ),
  );
  const tabSeat = focus ?? rows[0]?.row.seats[0]?.id ?? null;

  const onKeyDown = (event: KeyboardEvent<SVGGElement>, id: string) => {
    const direction = KEY_DIRECTIONS[event.key as keyof typeof KEY_DIRECTIONS];
    if (direction) {
      event.preventDefault();
      const next = neighbour(plan, id, direction);
      if (next) {
        dispatch({ type: 'focus', seat: next });
        refs.current.get(next)?.focus();
      }
    } else if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      dispatch({ type: 'select', seat: id, add: true });
    } else if (event.key === 'Escape') {
      dispatch({ type: 'clearSelection' });
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      if (chosen.size > 0) dispatch({ type: 'removeSeats' });
    }
  };

  /** The grid cell under a click on the empty hall. */
  const pick = (event: MouseEvent<SVGRectElement>) => {
    const drawing = svg.current;
    const matrix = drawing?.getScreenCTM();
    if (!drawing || !matrix) return;
    const p = drawing.createSVGPoint();
    p.x = event.clientX;
    p.y = event.clientY;
    const at = p.matrixTransform(matrix.inverse());
    const x = Math.floor(at.x / CELL);
    const y = Math.floor((at.y - SCREEN_BAND) / CELL);
    if (x >= 1 && x < plan.width && y >= 1 && y < plan.height) onPickCell(x, y);
  };

  return (
    <div className="seat-map plan-canvas">
      <div className="seat-map__viewport plan-canvas__viewport" dir="ltr">
        <svg
          ref={svg}
          className="seat-map__svg plan-canvas__svg"
          viewBox={`${-LABEL_BAND} 0 ${width + 2 * LABEL_BAND} ${height}`}
          role="group"
          aria-label={t('staffSeatPlans.canvas', { name: plan.name })}
        >
          <defs>
            <pattern id="plan-grid" width={CELL} height={CELL} patternUnits="userSpaceOnUse">
              <path d={`M ${CELL} 0 L 0 0 0 ${CELL}`} className="plan-canvas__grid-line" />
            </pattern>
          </defs>
          <HallScreen
            span={screen}
            label={localizedName(i18n.language, plan.screen.label, plan.screen.labelEn)}
          />
          <g transform={`translate(0 ${SCREEN_BAND})`}>
            <rect
              className="plan-canvas__grid"
              x={0}
              y={0}
              width={width}
              height={plan.height * CELL}
              fill="url(#plan-grid)"
              onClick={pick}
              aria-hidden="true"
            />
            <rect
              className="plan-canvas__start"
              x={start.x * CELL + 0.5}
              y={start.y * CELL + 0.5}
              width={CELL - 1}
              height={CELL - 1}
              aria-hidden="true"
            />
            <RowLabels rows={labels} width={width} />
            <SofaBacks spans={sofas.entries()} />
            {plan.sections.map((section) => (
              <g
                key={section.id}
                role="group"
                aria-label={localizedName(i18n.language, section.name, section.nameEn)}
              >
                {section.rows.flatMap((row) =>
                  row.seats.map((k) => {
                    const kinds = kindsOf(k);
                    const isChosen = chosen.has(k.id);
                    return (
                      <g
                        key={k.id}
                        ref={(el) => {
                          if (el) refs.current.set(k.id, el);
                          else refs.current.delete(k.id);
                        }}
                        role="button"
                        tabIndex={k.id === tabSeat ? 0 : -1}
                        aria-pressed={isChosen}
                        aria-label={[
                          t('seatMap.seatName', { row: row.name, seat: k.name }),
                          ...kinds.map((kind) => t(`seatMap.kind.${kind}`)),
                        ].join(', ')}
                        data-seat={`${row.name}-${k.name}`}
                        className={[
                          'seat',
                          isChosen ? 'seat--selected' : 'seat--available',
                          ...kinds.map((kind) => `seat--${kind}`),
                          k.id === flagged ? 'plan-canvas__flagged' : '',
                        ].join(' ')}
                        transform={`translate(${k.x * CELL + (CELL - SEAT) / 2} ${k.y * CELL + (CELL - SEAT) / 2})`}
                        onFocus={() => dispatch({ type: 'focus', seat: k.id })}
                        onClick={(event) =>
                          dispatch({
                            type: 'select',
                            seat: k.id,
                            add: event.shiftKey || event.ctrlKey || event.metaKey,
                          })
                        }
                        onKeyDown={(event) => onKeyDown(event, k.id)}
                      >
                        <SeatShape kinds={kinds} state={isChosen ? 'selected' : 'available'} />
                        {k.id === flagged && (
                          <rect
                            className="plan-canvas__ring"
                            x={-1}
                            y={-1}
                            width={SEAT + 2}
                            height={SEAT + 2}
                            rx={3}
                          />
                        )}
                      </g>
                    );
                  }),
                )}
              </g>
            ))}
          </g>
        </svg>
      </div>
    </div>
  );
}
