// Bar charts of the staff screens (decision 0032): Chart.js on a canvas, only in the staff chunk.
// A canvas says nothing to a screen reader, so each chart is an image with a one-line summary and
// every chart sits beside a table (or buttons) that carries the same numbers. In Hebrew the
// category axis runs from the right, as the tables and the calendar read, and the value axis
// stands on the right.
import { useEffect, useRef } from 'react';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** The colours of the seat map and the meters (staff.css), so a chart reads like the rest. */
const TONES = { sold: '#9b1030', held: '#b45309' } as const;

export interface ChartSeries {
  label: string;
  data: number[];
  tone: keyof typeof TONES;
}

export interface BarChartProps {
  /** What the chart shows, as a screen reader hears it (role="img"). */
  summary: string;
  labels: string[];
  series: ChartSeries[];
  /** Bars along the inline axis (one per hall), instead of columns (one per day). */
  horizontal?: boolean;
  /** The value axis is a percent of capacity (0–100). */
  percent?: boolean;
  rtl: boolean;
  /** The chart's height in CSS pixels. */
  height?: number;
}

/** The page's own type (Noto Sans, Noto Sans Hebrew) rather than the canvas default. */
function fontFamily(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return getComputedStyle(document.body).fontFamily || undefined;
}

function config(p: BarChartProps): ChartConfiguration<'bar'> {
  const muted = '#5a5f6b';
  const font = { family: fontFamily(), size: 12 };
  const grid = '#dfe1e6';
  const valueAxis = {
    stacked: true,
    beginAtZero: true,
    max: p.percent ? 100 : undefined,
    position: (p.horizontal ? 'bottom' : p.rtl ? 'right' : 'left') as 'bottom' | 'right' | 'left',
    reverse: p.horizontal && p.rtl,
    ticks: {
      color: muted,
      font,
      precision: 0,
      callback: (v: string | number) => (p.percent ? `${v}%` : v),
    },
    grid: { color: grid },
  };
  const categoryAxis = {
    stacked: true,
    reverse: !p.horizontal && p.rtl,
    position: (p.horizontal ? (p.rtl ? 'right' : 'left') : 'bottom') as 'bottom' | 'right' | 'left',
    ticks: { color: muted, font, autoSkip: true, maxRotation: 0 },
    grid: { display: false },
  };
  return {
    type: 'bar',
    data: {
      labels: p.labels,
      datasets: p.series.map((s) => ({
        label: s.label,
        data: s.data,
        backgroundColor: TONES[s.tone],
        borderRadius: 2,
        maxBarThickness: p.horizontal ? 22 : 28,
      })),
    },
    options: {
      indexAxis: p.horizontal ? 'y' : 'x',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      locale: p.rtl ? 'he-IL' : 'en-GB',
      scales: p.horizontal ? { x: valueAxis, y: categoryAxis } : { x: categoryAxis, y: valueAxis },
      plugins: {
        legend: {
          display: p.series.length > 1,
          rtl: p.rtl,
          textDirection: p.rtl ? 'rtl' : 'ltr',
          align: 'start',
          labels: { color: '#15171c', boxWidth: 12, font },
        },
        tooltip: {
          rtl: p.rtl,
          textDirection: p.rtl ? 'rtl' : 'ltr',
          titleFont: font,
          bodyFont: font,
          callbacks: p.percent
            ? { label: (c) => `${c.dataset.label ?? ''}: ${String(c.raw)}%` }
            : undefined,
        },
      },
    },
  };
}

export function BarChart(props: BarChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<'bar'> | null>(null);
  const { rtl, horizontal } = props;
  // One chart per canvas and direction; new numbers update it in place.
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    // No 2-D context (a test DOM without canvas): the table beside the chart carries the numbers.
    if (!context) return;
    chart.current = new Chart(context, config(props));
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the chart is rebuilt only when its shape changes; the effect below feeds it new numbers
  }, [rtl, horizontal]);
  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    const next = config(props);
    c.data = next.data;
    c.options = next.options ?? {};
    c.update('none');
  });
  return (
    <div className="staff-chart" style={{ blockSize: props.height ?? 220 }}>
      <canvas ref={canvas} role="img" aria-label={props.summary}>
        {props.summary}
      </canvas>
    </div>
  );
}
