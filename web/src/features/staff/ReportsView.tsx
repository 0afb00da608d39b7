// The cinema reports (issue 17, managers only): one of the five reports over a range of business
// days (the last seven by default) for some of the manager's businesses, drawn as bars above a
// sortable, paged table, exported as CSV or XLSX by the server, printable whole. Which report is
// open lives in the URL (?report=), so a reload or a shared link opens the same one.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { addDays, isCalendarDate, todayInCinema } from '../../lib/format';
import { reportQuery, type CinemaFilterData, type StaffMe } from './api';
import { ReportChart } from './charts';
import { ReportTable } from './ReportTable';
import {
  MAX_RANGE_DAYS,
  REPORTS,
  formatCell,
  rangeDays,
  isReportName,
  reportUrl,
  type ReportName,
  type ReportQuery,
} from './reportsModel';
import './reports.css';

export function ReportsView({ me, filter }: { me: StaffMe; filter?: CinemaFilterData }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [params, setParams] = useSearchParams();
  const asked = params.get('report');
  const report: ReportName = isReportName(asked) ? asked : REPORTS[0];
  // The business day the server calls today (05:00–05:00), else the calendar day in Jerusalem.
  const today = filter?.today ?? todayInCinema();
  const [from, setFrom] = useState(() => addDays(today, -6));
  const [to, setTo] = useState(today);
  const [businessIds, setBusinessIds] = useState<number[]>(me.businessIds);
  const datesOk = isCalendarDate(from) && isCalendarDate(to);
  const backwards = datesOk && from > to;
  const tooLong = datesOk && rangeDays(from, to) > MAX_RANGE_DAYS;
  const rangeOk = datesOk && !backwards && !tooLong;
  const query: ReportQuery = { from, to, businessIds: [...businessIds].sort((a, b) => a - b) };
  const q = useQuery({ ...reportQuery(report, query), enabled: rangeOk });

  const pick = (next: string) => {
    const p = new URLSearchParams(params);
    p.set('report', next);
    setParams(p);
  };
  const toggleBusiness = (id: number, on: boolean) =>
    setBusinessIds((ids) => (on ? [...ids, id] : ids.filter((x) => x !== id)));
  const cinemasOf = (id: number) =>
    (filter?.locations ?? [])
      .filter((l) => l.businessId === id && l.isCinema)
      .map((l) => (lang === 'he' ? l.name : l.nameEn))
      .join(', ');
  const title = t(`staffReports.names.${report}`);
  const range = t('staffReports.range', {
    from: formatCell(from, 'date', lang),
    to: formatCell(to, 'date', lang),
  });

  return (
    <section className="reports" aria-labelledby="reports-title">
      <h2 id="reports-title" className="reports__title">
        {title}
      </h2>
      <p className="reports__range">{range}</p>
      <div className="staff-filters reports-controls">
        <label>
          {t('staffReports.report')}
          <select value={report} onChange={(e) => pick(e.target.value)}>
            {REPORTS.map((r) => (
              <option key={r} value={r}>
                {t(`staffReports.names.${r}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('staffReports.from')}
          <input
            type="date"
            value={from}
            max={to}
            aria-invalid={backwards || tooLong ? true : undefined}
            aria-describedby={backwards || tooLong ? 'reports-bad-range' : undefined}
            onChange={(e) => setFrom(e.target.value)}
          />
        </label>
        <label>
          {t('staffReports.to')}
          <input type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} />
        </label>
        {me.businessIds.length > 0 && (
          <fieldset className="reports-businesses">
            <legend>{t('staffReports.businesses')}</legend>
            {me.businessIds.map((id) => {
              const cinemas = cinemasOf(id);
              const checked = businessIds.includes(id);
              return (
                <label key={id} className="reports-business">
                  <input
                    type="checkbox"
                    checked={checked}
                    // At least one business stays chosen: no business is no report.
                    disabled={checked && businessIds.length === 1}
                    onChange={(e) => toggleBusiness(id, e.target.checked)}
                  />
                  {cinemas
                    ? t('staffReports.businessOf', { id, cinemas })
                    : t('staffReports.business', { id })}
                </label>
              );
            })}
          </fieldset>
        )}
      </div>
      {(backwards || tooLong) && (
        <p id="reports-bad-range" className="reports__bad" role="alert">
          {backwards
            ? t('staffReports.badRange')
            : t('staffReports.tooLong', { days: MAX_RANGE_DAYS })}
        </p>
      )}
      {rangeOk && (
        <div className="reports-actions" role="group" aria-label={t('staffReports.downloads')}>
          <a
            className="staff-button staff-button--quiet"
            href={reportUrl(report, query, 'csv', lang)}
            download
          >
            {t('staffReports.exportCsv')}
          </a>
          <a
            className="staff-button staff-button--quiet"
            href={reportUrl(report, query, 'xlsx', lang)}
            download
          >
            {t('staffReports.exportXlsx')}
          </a>
          <button
            type="button"
            className="staff-button staff-button--quiet"
            onClick={() => window.print()}
          >
            {t('staffReports.print')}
          </button>
        </div>
      )}
      {rangeOk && q.isPending && <Loading block />}
      {q.isError && (
        <Notice tone="error" title={t('errors.reportsFetchError')} headingLevel={2}>
          <button type="button" className="staff-button" onClick={() => void q.refetch()}>
            {t('staffReports.retry')}
          </button>
        </Notice>
      )}
      {rangeOk && q.data && !q.isError && (
        <div className={q.isFetching ? 'reports-data reports-data--stale' : 'reports-data'}>
          {q.data.rows.length === 0 ? (
            <p className="reports__empty">{t('staffReports.empty')}</p>
          ) : (
            <>
              <ReportChart report={report} data={q.data} />
              <ReportTable
                key={reportUrl(report, query)}
                data={q.data}
                caption={`${title}, ${range}`}
              />
            </>
          )}
        </div>
      )}
    </section>
  );
}
