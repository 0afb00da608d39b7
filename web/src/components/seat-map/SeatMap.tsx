import {
  useDeferredValue,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { SeatShort, SeatplanV2 } from '../../lib/api/types';
import { localizedName } from '../../lib/localized';
import { seatKey } from '../../lib/seatAddress';
import { HallScreen, RowLabels, SofaBacks } from './HallParts';
import {
  defaultFocus,
  neighbour,
  rowLabels,
  screenSpan,
  seatLabeler,
  sofaSpans,
  SEAT_MAP_CELL as CELL,
  SEAT_MAP_LABEL_BAND as LABEL_BAND,
  SEAT_MAP_SCREEN_BAND as SCREEN_BAND,
  SEAT_MAP_SEAT as SEAT,
  type BlockReason,
  type Direction,
  type SeatState,
} from './seatModel';
import {
  clampZoom,
  Gesture,
  MAX_ZOOM,
  MIN_ZOOM,
  scrollAfter,
  stepZoom,
  type Point,
} from './panZoom';
import { Seat, SeatDetails, SeatLegend, type SeatHandlers, type SeatMark } from './SeatParts';
import './SeatMap.css';

export type { SeatMark } from './SeatParts';
export { SeatShape } from './SeatParts';

/** No seats drawn yet (the first frame of a map, see `drawnSections`). */
const NO_SEATS: ReadonlyMap<number, SeatShort[]> = new Map();

const KEY_DIRECTIONS: Record<string, Direction> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

export interface SeatMapProps {
  plan: SeatplanV2;
  /** Each seat's state by seatKey; a seat missing here is drawn as not selectable. */
  states: ReadonlyMap<string, SeatState>;
  /** Seats with a lock or unlock on the way. */
  busy?: ReadonlySet<string>;
  onSeatActivate: (seat: SeatShort, state: SeatState) => void;
  /** Why a free seat is not for sale now, by seatKey (the single-seat rule, the box office). */
  reasons?: ReadonlyMap<string, BlockReason>;
  /** The seat's price level in words ("Premium, from ₪70"), when known. */
  priceLevelOf?: (seat: SeatShort) => string | null;
  /** The hall's name in the page's language, for the map's spoken name (the seat plan's own
   * name is the back office's, in Hebrew). */
  name?: string;
  /** Seats marked for this buyer, by seatKey (the seat-change screen's tickets). */
  marks?: ReadonlyMap<string, SeatMark>;
  /** The legend's words for the marks in use. */
  markLegend?: readonly { tone: SeatMark['tone']; label: string }[];
}

function isSelectable(state: SeatState): boolean {
  return state === 'available' || state === 'selected';
}

/** The hall drawn from the seat plan, one focusable button per seat. */
export function SeatMap({
  plan,
  states,
  busy,
  onSeatActivate,
  reasons,
  priceLevelOf,
  name,
  marks,
  markLegend,
}: SeatMapProps) {
  const { t, i18n } = useTranslation();
  // A seat's spoken name: its place and state, or its place and the mark this screen puts on it.
  const labelOf = useMemo(() => {
    const ofState = seatLabeler(t);
    return (seat: SeatShort, state: SeatState, reason?: BlockReason, mark?: SeatMark) =>
      mark
        ? `${t('seatMap.seatName', { row: seat.r, seat: seat.n })}, ${mark.label}`
        : ofState(seat, state, reason);
  }, [t]);
  const lang = i18n.language;
  // The whole hall first, fitted to the width, on a phone too; the buyer zooms from there.
  const startZoom = MIN_ZOOM;
  const [zoom, setZoom] = useState<number>(MIN_ZOOM);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  // The seat whose details are shown: the last one tapped, hovered or focused.
  const [inspectedKey, setInspectedKey] = useState<string | null>(null);
  const seatRefs = useRef(new Map<string, SVGGElement>());
  const viewport = useRef<HTMLDivElement>(null);
  const drawing = useRef<SVGSVGElement>(null);
  const gesture = useRef(new Gesture());
  // The zoom as of the last gesture step, read between renders (a pinch moves faster than React);
  // every change of `zoom` goes through zoomTo or the start below, which keep it.
  const liveZoom = useRef<number>(MIN_ZOOM);
  // A drag ends with a click on whatever seat it started on: that click is not a choice.
  const swallowClick = useRef(false);

  const seatsBySection = useMemo(() => {
    const groups = new Map<number, SeatShort[]>();
    for (const seat of plan.seats) {
      const list = groups.get(seat.si) ?? [];
      list.push(seat);
      groups.set(seat.si, list);
    }
    return groups;
  }, [plan.seats]);
  // The seats come a moment after the map's frame, in a render React may interrupt: drawing a
  // hall of 500 seats at once held a slow phone's main thread for hundreds of milliseconds. Until
  // then the frame shows the hall's seats as the server's first screen's picture drew them (0076).
  const drawnSections = useDeferredValue(seatsBySection, NO_SEATS);
  const seatsDrawn = drawnSections === seatsBySection || drawnSections.size > 0;
  // Meanwhile every seat in one path (one node, drawn at once), as the server's picture draws
  // them: a path is no candidate for the largest paint, where a picture the app drew again
  // would be one if it came out a pixel larger than the server's.
  const skeleton = useMemo(
    () =>
      plan.seats
        .map((seat) => {
          const x = seat.x * CELL + (CELL - SEAT) / 2;
          const y = seat.y * CELL + (CELL - SEAT) / 2;
          return `M${x + 2} ${y}h${SEAT - 4}a2 2 0 0 1 2 2v${SEAT - 4}a2 2 0 0 1 -2 2h${4 - SEAT}a2 2 0 0 1 -2 -2v${4 - SEAT}a2 2 0 0 1 2 -2z`;
        })
        .join(''),
    [plan.seats],
  );

  const sofas = useMemo(
    () => sofaSpans(plan.seats.map((seat) => ({ sofa: seat.sf, x: seat.x, y: seat.y }))),
    [plan.seats],
  );

  // A seat plan's states arrive all at once (the first status answer) and change a few at a time
  // after (the event stream, the buyer's own clicks). The seats are drawn from a deferred copy, so
  // the first answer, which changes every seat, is drawn in a render React may interrupt rather
  // than in the urgent one the data store's update starts; each seat is a memoised `Seat`, so a
  // later answer redraws only the seats whose state it changed.
  const drawnStates = useDeferredValue(states);
  const drawnReasons = useDeferredValue(reasons);

  // Roving tabindex: one seat is in the tab order. By default the first seat of this buyer, else
  // the free seat nearest the hall's best point.
  const defaultFocusKey = useMemo(() => defaultFocus(plan, drawnStates), [plan, drawnStates]);
  const tabKey =
    focusKey && plan.seats.some((s) => seatKey(s) === focusKey) ? focusKey : defaultFocusKey;

  /** Zooms to `next` keeping the drawing's point under `from` under `to` (box pixels). */
  const zoomTo = (next: number, from?: Point, to?: Point) => {
    const box = viewport.current;
    const target = clampZoom(next);
    const before = liveZoom.current;
    liveZoom.current = target;
    if (box) {
      const centre = { x: box.clientWidth / 2, y: box.clientHeight / 2 };
      const scroll = scrollAfter(
        { left: box.scrollLeft, top: box.scrollTop },
        from ?? centre,
        to ?? from ?? centre,
        before,
        target,
      );
      // Size the drawing now, so the scroll lands on the new size in the same frame.
      if (drawing.current) drawing.current.style.inlineSize = `${target * 100}%`;
      box.scrollLeft = scroll.left;
      box.scrollTop = scroll.top;
    }
    setZoom(target);
  };
  const changeZoom = (direction: 1 | -1) => zoomTo(stepZoom(zoom, direction));

  const boxPoint = (event: ReactPointerEvent): Point => {
    const box = viewport.current;
    if (!box) return { x: event.clientX, y: event.clientY };
    const rect = box.getBoundingClientRect();
    return {
      x: event.clientX - rect.left - box.clientLeft,
      y: event.clientY - rect.top - box.clientTop,
    };
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    if (gesture.current.count === 0) swallowClick.current = false;
    gesture.current.down(event.pointerId, boxPoint(event));
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const box = viewport.current;
    const step = gesture.current.move(event.pointerId, boxPoint(event));
    if (!step || !box) return;
    // Once it is a drag the pointer belongs to the map (not captured before: a plain press
    // must still click the seat under it).
    if (!box.hasPointerCapture?.(event.pointerId)) {
      try {
        box.setPointerCapture?.(event.pointerId);
      } catch {
        // The pointer is already gone.
      }
    }
    swallowClick.current = true;
    if (step.kind === 'pan') {
      const z = liveZoom.current;
      const scroll = scrollAfter(
        { left: box.scrollLeft, top: box.scrollTop },
        step.from,
        step.to,
        z,
        z,
      );
      box.scrollLeft = scroll.left;
      box.scrollTop = scroll.top;
    } else {
      zoomTo(liveZoom.current * step.scale, step.from, step.to);
    }
  };

  const onPointerEnd = (event: ReactPointerEvent<HTMLDivElement>) => {
    gesture.current.up(event.pointerId);
  };

  const activatable = (seat: SeatShort, state: SeatState) =>
    isSelectable(state) || Boolean(marks?.has(seatKey(seat)));

  const onKeyDown = (event: KeyboardEvent<SVGGElement>, seat: SeatShort, state: SeatState) => {
    const direction = KEY_DIRECTIONS[event.key];
    if (direction) {
      event.preventDefault();
      const next = neighbour(plan.seats, seat, direction);
      if (next) {
        const key = seatKey(next);
        setFocusKey(key);
        seatRefs.current.get(key)?.focus();
      }
      return;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (activatable(seat, state)) onSeatActivate(seat, state);
    }
  };

  // What a seat does when focused, hovered, clicked or keyed: one object for the life of the map,
  // calling the handlers of the latest render, so no seat redraws because a handler is new.
  const latest = useRef({ onKeyDown, onSeatActivate, activatable });
  useLayoutEffect(() => {
    latest.current = { onKeyDown, onSeatActivate, activatable };
  });
  const seatHandlers = useMemo<SeatHandlers>(
    () => ({
      register: (key, el) => {
        if (el) seatRefs.current.set(key, el);
        else seatRefs.current.delete(key);
      },
      focus: (key) => {
        setFocusKey(key);
        setInspectedKey(key);
      },
      hover: (key) => setInspectedKey(key),
      click: (seat, key, state) => {
        setFocusKey(key);
        setInspectedKey(key);
        if (latest.current.activatable(seat, state)) latest.current.onSeatActivate(seat, state);
      },
      keyDown: (event, seat, state) => latest.current.onKeyDown(event, seat, state),
    }),
    [],
  );

  const width = plan.width * CELL;
  const height = plan.height * CELL + SCREEN_BAND;
  const rows = rowLabels(plan.seats);
  const screen = screenSpan(plan);
  const inspected = inspectedKey ? plan.seats.find((seat) => seatKey(seat) === inspectedKey) : null;
  const hasSingleSeatRule = [...(reasons?.values() ?? [])].some((r) => r === 'singleSeat');
  const sectionName = (id: number) => {
    const section = plan.sections.find((s) => s.id === id);
    return section ? localizedName(lang, section.name, section.nameEn) : String(id);
  };

  return (
    <div className="seat-map">
      {/* The drawing is the hall as seen from above: it does not mirror in right-to-left pages. */}
      {/* Drag with one finger (or the mouse), pinch with two; the buttons do the same. */}
      <div
        className={
          zoom > MIN_ZOOM ? 'seat-map__viewport seat-map__viewport--zoomed' : 'seat-map__viewport'
        }
        ref={viewport}
        dir="ltr"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onClickCapture={(event) => {
          if (!swallowClick.current) return;
          swallowClick.current = false;
          event.stopPropagation();
          event.preventDefault();
        }}
      >
        <svg
          ref={drawing}
          className={zoom <= MIN_ZOOM ? 'seat-map__svg seat-map__svg--fit' : 'seat-map__svg'}
          viewBox={`${-LABEL_BAND} 0 ${width + 2 * LABEL_BAND} ${height}`}
          style={{ inlineSize: `${zoom * 100}%` }}
          role="group"
          aria-label={t('seatMap.label', { name: name ?? plan.name })}
        >
          <HallScreen
            span={screen}
            label={localizedName(lang, plan.screen.label, plan.screen.labelEn)}
          />
          <g transform={`translate(0 ${SCREEN_BAND})`}>
            <RowLabels rows={rows} width={width} />
            <SofaBacks spans={sofas.entries()} />
            {!seatsDrawn && <path className="seat-map__skeleton" d={skeleton} aria-hidden="true" />}
            {[...drawnSections.entries()].map(([sectionId, seats]) => (
              <g key={sectionId} role="group" aria-label={sectionName(sectionId)}>
                {seats.map((seat) => {
                  const key = seatKey(seat);
                  const state = drawnStates.get(key) ?? 'blocked';
                  const mark = marks?.get(key);
                  return (
                    <Seat
                      key={key}
                      seat={seat}
                      seatKey={key}
                      state={state}
                      reason={drawnReasons?.get(key)}
                      busy={busy?.has(key) ?? false}
                      mark={mark}
                      tabbable={key === tabKey}
                      canActivate={activatable(seat, state)}
                      labelOf={labelOf}
                      handlers={seatHandlers}
                    />
                  );
                })}
              </g>
            ))}
          </g>
        </svg>
      </div>

      <div className="seat-map__toolbar" role="toolbar" aria-label={t('seatMap.zoomTools')}>
        <button
          type="button"
          className="tool-button seat-map__tool"
          onClick={() => changeZoom(1)}
          disabled={zoom >= MAX_ZOOM}
          aria-label={t('seatMap.zoomIn')}
        >
          +
        </button>
        <button
          type="button"
          className="tool-button seat-map__tool"
          onClick={() => changeZoom(-1)}
          disabled={zoom <= MIN_ZOOM}
          aria-label={t('seatMap.zoomOut')}
        >
          −
        </button>
        <button
          type="button"
          className="tool-button seat-map__tool seat-map__tool--text"
          onClick={() => zoomTo(startZoom)}
          disabled={zoom === startZoom}
        >
          {t('seatMap.zoomReset')}
        </button>
      </div>

      <SeatDetails
        seat={inspected ?? null}
        state={inspected ? (states.get(seatKey(inspected)) ?? 'blocked') : null}
        reason={inspected ? reasons?.get(seatKey(inspected)) : undefined}
        section={inspected ? sectionName(inspected.si) : ''}
        priceLevel={inspected ? (priceLevelOf?.(inspected) ?? null) : null}
        mark={inspected ? marks?.get(seatKey(inspected)) : undefined}
      />

      <SeatLegend marks={markLegend} />
      {hasSingleSeatRule && <p className="seat-map__rule">{t('seatMap.why.singleSeatLegend')}</p>}
    </div>
  );
}
