// The parts of a hall's drawing that the buyer's seat map and the staff's seat-plan editor draw
// alike: the screen, the row names at both sides, and the sofas behind their seats.
import {
  SEAT_MAP_CELL as CELL,
  SEAT_MAP_LABEL_BAND as LABEL_BAND,
  type rowLabels,
  type screenSpan,
  type SofaSpan,
} from './seatModel';

/** The screen's arc and its name, above the hall. */
export function HallScreen({
  span,
  label,
}: {
  span: ReturnType<typeof screenSpan>;
  label: string;
}) {
  return (
    <g className="seat-map__screen" aria-hidden="true">
      <path
        d={`M ${span.from} 12 Q ${span.middle} 4 ${span.to} 12`}
        className="seat-map__screen-line"
      />
      <text x={span.middle} y={19} textAnchor="middle" className="seat-map__screen-label">
        {label}
      </text>
    </g>
  );
}

/** Each row's name at its leftmost and its rightmost seat; `width` is the hall's, in SVG units. */
export function RowLabels({ rows, width }: { rows: ReturnType<typeof rowLabels>; width: number }) {
  return (
    <g className="seat-map__rows" aria-hidden="true">
      {rows.map((row) => (
        <g key={row.y}>
          <text x={-LABEL_BAND / 2} y={row.leftY * CELL + CELL / 2} className="seat-map__row">
            {row.left}
          </text>
          <text
            x={width + LABEL_BAND / 2}
            y={row.rightY * CELL + CELL / 2}
            className="seat-map__row"
          >
            {row.right}
          </text>
        </g>
      ))}
    </g>
  );
}

/** Each sofa's back, under its seats: from its first to its last seat on one row. */
export function SofaBacks({ spans }: { spans: Iterable<[number | string, SofaSpan]> }) {
  return [...spans].map(([key, span]) => (
    <rect
      key={key}
      className="seat-map__sofa"
      x={span.x1 * CELL + 0.3}
      y={span.y * CELL + 0.3}
      width={(span.x2 - span.x1 + 1) * CELL - 0.6}
      height={CELL - 0.6}
      rx={3}
      aria-hidden="true"
    />
  ));
}
