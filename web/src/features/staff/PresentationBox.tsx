// The presentation box: a venue's or feature's presentations of the day with their Live data,
// and the chosen one's seat map, sold and held seats drawn live. The seat event stream
// (GET /api/seats/events, decision 0010) pushes every hold, release and sale: the map applies it
// at once and the figures are read again right after (within the 2 s of the issue), the stale
// answer guard dropping a reply overtaken by a newer request.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { API_BASE, apiGet } from '../../lib/api/client';
import { seatKey } from '../../lib/seatAddress';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { fetchBox, type DrillBy, type PresentationBoxResponse } from './api';
import { Meter } from './figures';
import { createLatestGuard, latestOnly } from './latest';
import { applyChanges, type SeatChange, type SeatsStatus } from './model';

/** After a burst of seat events, the figures are read again this long after the last one. */
export const FIGURES_AFTER_EVENT_MS = 250;

const statusKey = (p: number) => ['staff', 'seats', p] as const;

function useLiveSeats(presentationId: number | null, onChange: () => void) {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);
  useEffect(() => {
    if (presentationId === null || typeof EventSource === 'undefined') return;
    const source = new EventSource(
      `${API_BASE}/seats/events?presentationId=${encodeURIComponent(presentationId)}`,
    );
    let opened = false;
    source.addEventListener('ready', () => {
      setLive(true);
      if (opened) {
        void queryClient.invalidateQueries({ queryKey: statusKey(presentationId) });
        changed.current();
      }
      opened = true;
    });
    source.addEventListener('seats', (e) => {
      let event: { presentationId: number; changes: SeatChange[] };
      try {
        event = JSON.parse((e as MessageEvent<string>).data) as typeof event;
      } catch {
        return;
      }
      if (event.presentationId !== presentationId) return;
      queryClient.setQueryData<SeatsStatus>(statusKey(presentationId), (old) =>
        old ? applyChanges(old, event.changes) : old,
      );
      changed.current();
    });
    source.addEventListener('resync', () => {
      void queryClient.invalidateQueries({ queryKey: statusKey(presentationId) });
      changed.current();
    });
    source.addEventListener('error', () => setLive(false));
    return () => {
      source.close();
      setLive(false);
    };
  }, [presentationId, queryClient]);
  return live;
}

export function PresentationBox(props: {
  date: string;
  location: number;
  by: DrillBy;
  id: number;
}) {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [box, setBox] = useState<PresentationBoxResponse | null>(null);
  const [failed, setFailed] = useState(false);
  const run = useMemo(() => latestOnly<PresentationBoxResponse>(createLatestGuard()), []);
  const { date, location, by, id } = props;
  const load = useCallback(() => {
    run(
      () => fetchBox(date, location, by, id),
      (b) => {
        setBox(b);
        setFailed(false);
      },
    ).catch(() => setFailed(true));
  }, [run, date, location, by, id]);
  useEffect(() => {
    load();
  }, [load]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reloadSoon = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(load, FIGURES_AFTER_EVENT_MS);
  }, [load]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const chosenParam = Number(params.get('p') ?? NaN);
  const presentations = box?.presentations ?? [];
  const chosen =
    presentations.find((p) => p.PresentationId === chosenParam) ?? presentations[0] ?? null;
  const live = useLiveSeats(chosen?.PresentationId ?? null, reloadSoon);
  const time = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language === 'he' ? 'he-IL' : 'en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'Asia/Jerusalem',
    }).format(new Date(iso));
  const he = i18n.language === 'he';

  if (failed && !box) return <Notice tone="error" title={t('staff.loadError')} headingLevel={2} />;
  if (!box) return <Loading block />;
  if (presentations.length === 0)
    return <Notice title={t('staff.noPresentations')} headingLevel={2} />;
  return (
    <section className="staff-box" aria-labelledby="staff-box-title">
      <h2 id="staff-box-title">{t('staff.box')}</h2>
      <ul className="staff-box__list">
        {presentations.map((p) => (
          <li key={p.PresentationId}>
            <button
              type="button"
              className="staff-box__item"
              aria-pressed={p.PresentationId === chosen?.PresentationId}
              onClick={() => {
                const next = new URLSearchParams(params);
                next.set('p', String(p.PresentationId));
                setParams(next);
              }}
            >
              <span className="staff-box__time">{time(p.PresentationDateTime)}</span>
              <span>{he ? p.FeatureName : p.FeatureNameEn}</span>
              <span className="staff-box__hall">{he ? p.VenueName : p.VenueNameEn}</span>
              <Meter percent={p.Sold} held={p.Held} />
            </button>
          </li>
        ))}
      </ul>
      {chosen && (
        <article className="staff-box__detail" aria-labelledby="staff-box-chosen">
          <h3 id="staff-box-chosen">
            {time(chosen.PresentationDateTime)} · {he ? chosen.FeatureName : chosen.FeatureNameEn} ·{' '}
            {he ? chosen.VenueName : chosen.VenueNameEn}
          </h3>
          <p className={live ? 'staff-live staff-live--on' : 'staff-live'} role="status">
            {live ? t('staff.liveOn') : t('staff.liveOff')}
          </p>
          <dl className="staff-figures">
            <div>
              <dt>{t('staff.figures.capacity')}</dt>
              <dd data-figure="capacity">{chosen.Capacity}</dd>
            </div>
            <div>
              <dt>{t('staff.figures.sold')}</dt>
              <dd data-figure="sold">{chosen.SoldQuantity}</dd>
            </div>
            <div>
              <dt>{t('staff.figures.held')}</dt>
              <dd data-figure="held">{chosen.HeldQuantity}</dd>
            </div>
            <div>
              <dt>{t('staff.figures.percent')}</dt>
              <dd>{chosen.Sold}%</dd>
            </div>
            <div>
              <dt>{t('staff.figures.available')}</dt>
              <dd>{chosen.Availability}</dd>
            </div>
            <div>
              <dt>{t('staff.figures.ratio')}</dt>
              <dd>{chosen.SeatTakenRatio.toFixed(3)}</dd>
            </div>
          </dl>
          <LiveSeatMap presentationId={chosen.PresentationId} />
        </article>
      )}
    </section>
  );
}

const CELL = 12;

function LiveSeatMap({ presentationId }: { presentationId: number }) {
  const { t } = useTranslation();
  const status = useQuery({
    queryKey: statusKey(presentationId),
    queryFn: ({ signal }) =>
      apiGet<SeatsStatus>('/seats/seats-statusV2', { presentationId }, signal),
    staleTime: Infinity,
    retry: false,
  });
  if (status.isPending) return <Loading block />;
  if (status.error) return <Notice tone="error" title={t('staff.loadError')} headingLevel={2} />;
  const seats = status.data.seats;
  const width = Math.max(...seats.map((s) => s.x), 0) + 1;
  const height = Math.max(...seats.map((s) => s.y), 0) + 1;
  const count = (state: string) => seats.filter((s) => s.s === state).length;
  const sold = count('sold');
  const held = count('heldByOther') + count('heldByMe');
  const label = t('staff.mapLabel', { sold, held, free: seats.length - sold - held });
  return (
    <figure className="staff-map">
      <svg
        viewBox={`0 0 ${width * CELL} ${height * CELL}`}
        role="img"
        aria-label={label}
        data-sold={sold}
        data-held={held}
      >
        {seats.map((s) => (
          <rect
            key={seatKey(s)}
            x={s.x * CELL + 1}
            y={s.y * CELL + 1}
            width={CELL - 2}
            height={CELL - 2}
            rx={2}
            className={`staff-seat staff-seat--${s.s}`}
          />
        ))}
      </svg>
      <figcaption className="staff-map__legend">
        <span className="staff-seat-key staff-seat-key--available">{t('staff.legend.free')}</span>
        <span className="staff-seat-key staff-seat-key--heldByOther">{t('staff.legend.held')}</span>
        <span className="staff-seat-key staff-seat-key--sold">{t('staff.legend.sold')}</span>
      </figcaption>
    </figure>
  );
}
