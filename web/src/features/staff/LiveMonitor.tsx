// The live monitoring drill (spec sections 2 and 4): the calendar (14 days either side of today)
// → a day's locations → a location's venues or features → the presentation box. Where the user
// is lives in the URL (?date, loc, by, id), so back and reload keep it; each view, once loaded,
// is kept (react-query) and refreshed by live seat events, not by a timer.
import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { LangLink } from '../../components/ui/LangLink';
import {
  daysQuery,
  drillQuery,
  filterQuery,
  locationsQuery,
  rowId,
  staffLogout,
  type AttendanceRow,
  type DrillBy,
  type StaffMe,
} from './api';
import { CalendarChart, OccupancyChart } from './charts';
import { FigureCells, FigureHeads, Meter } from './figures';
import { PresentationBox } from './PresentationBox';
import { AuditView } from './backoffice/AuditView';
import { SalesSwitchesView } from './backoffice/SalesSwitchesView';
import { SeatPlansView } from './seat-plans/SeatPlansView';
import { FilmsView } from './catalogue/FilmsView';
import { ProductsView } from './catalogue/ProductsView';
import { ProgrammeView } from './programme/ProgrammeView';
import { RefAdmin } from './RefAdmin';
import { ReportsView } from './ReportsView';
import { SalesView } from './SalesView';
import { useFigureEvents } from './useFigureEvents';
import { formatDay, weekday } from './model';

type View =
  | 'attendance'
  | 'sales'
  | 'refs'
  | 'reports'
  | 'programme'
  | 'seatPlans'
  | 'films'
  | 'products'
  | 'switches'
  | 'audit';

export function LiveMonitor({ me }: { me: StaffMe }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const date = params.get('date');
  const loc = Number(params.get('loc') ?? NaN);
  const by: DrillBy = params.get('by') === 'feature' ? 'feature' : 'venue';
  const id = Number(params.get('id') ?? NaN);
  const go = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v === null) p.delete(k);
      else p.set(k, v);
    }
    setParams(p);
  };
  const logout = async () => {
    await staffLogout().catch(() => undefined);
    queryClient.removeQueries({ queryKey: ['staff'] });
    await queryClient.invalidateQueries({ queryKey: ['staff', 'me'] });
  };
  const filter = useQuery(filterQuery());
  const locationName = (l: number) => {
    const found = filter.data?.locations.find((x) => x.id === l);
    if (!found) return String(l);
    return i18n.language === 'he' ? found.name : found.nameEn;
  };
  const views: View[] =
    me.role === 'manager'
      ? [
          'attendance',
          'sales',
          'reports',
          'programme',
          'seatPlans',
          'films',
          'products',
          'switches',
          'audit',
          'refs',
        ]
      : me.role === 'usher'
        ? ['attendance']
        : ['refs'];
  const viewLabel = (v: View) => {
    switch (v) {
      case 'reports':
        return t('staffReports.view');
      case 'programme':
        return t('staffProgramme.view');
      case 'seatPlans':
        return t('staffSeatPlans.view');
      case 'films':
        return t('staffFilms.view');
      case 'products':
        return t('staffProducts.view');
      case 'switches':
        return t('staffSwitches.view');
      case 'audit':
        return t('staffAudit.view');
      default:
        return t(`staff.view.${v}`);
    }
  };
  const asked = params.get('view') as View | null;
  const view: View = asked && views.includes(asked) ? asked : views[0];
  // The tab bar scrolls sideways on a narrow screen: the chosen tab is kept in sight.
  const tabs = useRef<HTMLElement>(null);
  useEffect(() => {
    const pressed = tabs.current?.querySelector<HTMLElement>('[aria-pressed="true"]');
    pressed?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [view]);
  // The calendar, locations and halls follow sales live (the box has its own seat stream).
  useFigureEvents(view === 'attendance' && Number.isNaN(id));

  return (
    <main className="staff">
      <header className="staff__head">
        <h1>{t('staff.title')}</h1>
        <p className="staff__who">
          {me.FirstName} {me.LastName} · {t(`staff.roles.${me.role}`)}
        </p>
        {me.role !== 'ticketReferenceAgent' && (
          <LangLink to="/PRES-live/door" className="staff-link">
            {t('door.title')}
          </LangLink>
        )}
        <button
          type="button"
          className="staff-button staff-button--quiet"
          onClick={() => void logout()}
        >
          {t('staff.logout')}
        </button>
      </header>
      {views.length > 1 && (
        <nav className="staff-views" aria-label={t('staff.views')} ref={tabs}>
          {views.map((v) => (
            <button
              key={v}
              type="button"
              className="staff-button staff-button--toggle"
              aria-pressed={view === v}
              onClick={() => go({ view: v })}
            >
              {viewLabel(v)}
            </button>
          ))}
        </nav>
      )}
      {view === 'refs' && <RefAdmin />}
      {view === 'programme' && <ProgrammeView />}
      {view === 'seatPlans' && <SeatPlansView />}
      {view === 'films' && <FilmsView />}
      {view === 'products' && <ProductsView />}
      {view === 'switches' && <SalesSwitchesView />}
      {view === 'audit' && <AuditView />}
      {view === 'sales' && filter.data && <SalesView filter={filter.data} />}
      {view === 'reports' && !filter.isPending && <ReportsView me={me} filter={filter.data} />}
      {view === 'attendance' && (
        <>
          <nav className="staff__crumbs" aria-label={t('staff.crumbs')}>
            <ol>
              <li>
                <button type="button" onClick={() => go({ date: null, loc: null, id: null })}>
                  {t('staff.calendar')}
                </button>
              </li>
              {date && (
                <li>
                  <button type="button" onClick={() => go({ loc: null, id: null })}>
                    {formatDay(date, i18n.language)}
                  </button>
                </li>
              )}
              {date && !Number.isNaN(loc) && (
                <li>
                  <button type="button" onClick={() => go({ id: null })}>
                    {locationName(loc)}
                  </button>
                </li>
              )}
            </ol>
          </nav>
          {!date && filter.data && (
            <Calendar
              from={filter.data.calendarFrom}
              to={filter.data.calendarTo}
              today={filter.data.today}
              weekend={filter.data.weekendDays}
              onPick={(d) => go({ date: d })}
            />
          )}
          {!date && filter.isPending && <Loading block />}
          {date && Number.isNaN(loc) && (
            <Locations date={date} onPick={(l) => go({ loc: String(l), id: null })} />
          )}
          {date && !Number.isNaN(loc) && Number.isNaN(id) && (
            <Drill
              date={date}
              location={loc}
              by={by}
              onBy={(b) => go({ by: b })}
              onPick={(i) => go({ id: String(i) })}
            />
          )}
          {date && !Number.isNaN(loc) && !Number.isNaN(id) && (
            <PresentationBox date={date} location={loc} by={by} id={id} />
          )}
        </>
      )}
    </main>
  );
}

function Calendar(props: {
  from: string;
  to: string;
  today: string;
  weekend: number[];
  onPick: (date: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const days = useQuery(daysQuery(props.from, props.to));
  if (days.isPending) return <Loading block />;
  if (days.error) return <Notice tone="error" title={t('staff.loadError')} headingLevel={2} />;
  return (
    <section aria-labelledby="staff-calendar">
      <h2 id="staff-calendar">{t('staff.calendar')}</h2>
      <CalendarChart days={days.data.days} />
      <ul className="staff-calendar">
        {days.data.days.map((d) => {
          const classes = ['staff-day'];
          if (d.BusinessDate === props.today) classes.push('staff-day--today');
          if (props.weekend.includes(weekday(d.BusinessDate))) classes.push('staff-day--weekend');
          return (
            <li key={d.BusinessDate}>
              <button
                type="button"
                className={classes.join(' ')}
                aria-current={d.BusinessDate === props.today ? 'date' : undefined}
                onClick={() => props.onPick(d.BusinessDate)}
              >
                <span className="staff-day__date">{formatDay(d.BusinessDate, i18n.language)}</span>
                <span className="staff-day__count">
                  {t('staff.soldOf', { sold: d.SoldQuantity, capacity: d.Capacity })}
                </span>
                <Meter percent={d.Sold} held={d.Held} />
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function RowsTable(props: {
  caption: string;
  chartTitle: string;
  rows: AttendanceRow[];
  onPick: (id: number) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <OccupancyChart title={props.chartTitle} rows={props.rows} />
      <table className="staff-table">
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('staff.figures.name')}</th>
            <FigureHeads />
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => {
            const id = rowId(r);
            const name = i18n.language === 'he' ? r.Name : r.NameEn;
            return (
              <tr key={id} className={id === -1 ? 'staff-table__total' : undefined}>
                <th scope="row">
                  {id === -1 ? (
                    name
                  ) : (
                    <button type="button" className="staff-link" onClick={() => props.onPick(id)}>
                      {name}
                    </button>
                  )}
                </th>
                <FigureCells f={r} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}

function Locations({ date, onPick }: { date: string; onPick: (l: number) => void }) {
  const { t, i18n } = useTranslation();
  const q = useQuery(locationsQuery(date));
  if (q.isPending) return <Loading block />;
  if (q.error) return <Notice tone="error" title={t('staff.loadError')} headingLevel={2} />;
  return (
    <RowsTable
      caption={t('staff.locationsOf', { date: formatDay(date, i18n.language) })}
      chartTitle={t('staffCharts.occupancyLocations')}
      rows={q.data.rows}
      onPick={onPick}
    />
  );
}

function Drill(props: {
  date: string;
  location: number;
  by: DrillBy;
  onBy: (by: DrillBy) => void;
  onPick: (id: number) => void;
}) {
  const { t } = useTranslation();
  const q = useQuery(drillQuery(props.date, props.location, props.by));
  return (
    <section>
      <div className="staff-toggle" role="group" aria-label={t('staff.drillBy')}>
        {(['venue', 'feature'] as const).map((b) => (
          <button
            key={b}
            type="button"
            aria-pressed={props.by === b}
            className="staff-button staff-button--toggle"
            onClick={() => props.onBy(b)}
          >
            {t(`staff.by.${b}`)}
          </button>
        ))}
      </div>
      {q.isPending && <Loading block />}
      {q.error && <Notice tone="error" title={t('staff.loadError')} headingLevel={2} />}
      {q.data && (
        <RowsTable
          caption={t(props.by === 'venue' ? 'staff.venues' : 'staff.features')}
          chartTitle={t(
            props.by === 'venue' ? 'staffCharts.occupancyVenues' : 'staffCharts.occupancyFeatures',
          )}
          rows={q.data.rows}
          onPick={props.onPick}
        />
      )}
    </section>
  );
}
