// The staff screens' charts, each with the numbers it draws in text beside it: tickets sold and
// held per day of the live calendar, occupancy per cinema, hall or feature, and tickets by the day
// they were paid (the v2 view), and each cinema report's bars.
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/format';
import { rowId, type AttendanceRow } from './api';
import { BarChart } from './BarChart';
import { dayLabel } from './model';
import { CHART_BARS, chartOf, type ReportData, type ReportName } from './reportsModel';

interface DayFigures {
  BusinessDate: string;
  SoldQuantity: number;
  HeldQuantity: number;
}

/** Seats sold and held on each day of the live calendar (the day buttons carry the numbers). */
export function CalendarChart({ days }: { days: DayFigures[] }) {
  const { t, i18n } = useTranslation();
  const sold = days.reduce((n, d) => n + d.SoldQuantity, 0);
  const busiest = days.reduce<DayFigures | null>(
    (best, d) => (best === null || d.SoldQuantity > best.SoldQuantity ? d : best),
    null,
  );
  return (
    <figure className="staff-figure">
      <figcaption>{t('staffCharts.calendarTitle')}</figcaption>
      <BarChart
        rtl={i18n.language === 'he'}
        summary={t('staffCharts.calendarSummary', {
          days: days.length,
          sold,
          busiest: busiest ? dayLabel(busiest.BusinessDate) : '—',
          most: busiest?.SoldQuantity ?? 0,
        })}
        labels={days.map((d) => dayLabel(d.BusinessDate))}
        series={[
          { label: t('staff.legend.sold'), data: days.map((d) => d.SoldQuantity), tone: 'sold' },
          { label: t('staff.legend.held'), data: days.map((d) => d.HeldQuantity), tone: 'held' },
        ]}
        height={200}
      />
    </figure>
  );
}

/** Percent sold and held of each row (cinemas, halls or features), the total row left out. */
export function OccupancyChart({ title, rows }: { title: string; rows: AttendanceRow[] }) {
  const { t, i18n } = useTranslation();
  const he = i18n.language === 'he';
  const shown = rows.filter((r) => rowId(r) !== -1);
  if (shown.length === 0) return null;
  const name = (r: AttendanceRow) => (he ? r.Name : r.NameEn);
  return (
    <figure className="staff-figure">
      <figcaption>{title}</figcaption>
      <BarChart
        rtl={he}
        horizontal
        percent
        summary={t('staffCharts.occupancySummary', {
          list: shown
            .map((r) => t('staffCharts.occupancyOf', { name: name(r), sold: r.Sold, held: r.Held }))
            .join('; '),
        })}
        labels={shown.map(name)}
        series={[
          { label: t('staffCharts.soldPercent'), data: shown.map((r) => r.Sold), tone: 'sold' },
          { label: t('staffCharts.heldPercent'), data: shown.map((r) => r.Held), tone: 'held' },
        ]}
        height={Math.max(120, 48 + shown.length * 34)}
      />
    </figure>
  );
}

interface PaidDay {
  BusinessDate: string;
  Tickets: number;
  Revenue: number;
}

/** Tickets by the day they were paid, with the same numbers in a table under a disclosure. */
export function PaidByDayChart(props: { days: PaidDay[]; money: (agorot: number) => string }) {
  const { t, i18n } = useTranslation();
  const tickets = props.days.reduce((n, d) => n + d.Tickets, 0);
  return (
    <figure className="staff-figure">
      <figcaption>{t('staff.sales.byDay')}</figcaption>
      <BarChart
        rtl={i18n.language === 'he'}
        summary={t('staffCharts.paidSummary', { days: props.days.length, tickets })}
        labels={props.days.map((d) => dayLabel(d.BusinessDate))}
        series={[
          { label: t('staffCharts.tickets'), data: props.days.map((d) => d.Tickets), tone: 'sold' },
        ]}
      />
      <details>
        <summary>{t('staffCharts.showNumbers')}</summary>
        <table className="staff-table">
          <caption className="visually-hidden">{t('staff.sales.byDay')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('staffCharts.day')}</th>
              <th scope="col">{t('staffCharts.tickets')}</th>
              <th scope="col">{t('staff.sales.revenue')}</th>
            </tr>
          </thead>
          <tbody>
            {props.days.map((d) => (
              <tr key={d.BusinessDate}>
                <th scope="row">{dayLabel(d.BusinessDate)}</th>
                <td>{d.Tickets}</td>
                <td>{props.money(d.Revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** A report's bars (reportsModel.chartOf) above its table, which carries every number. */
export function ReportChart({ report, data }: { report: ReportName; data: ReportData }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const chart = chartOf(data, lang);
  if (chart.labels.length === 0) return null;
  const shown = (v: number) => (chart.money ? formatMoney(Math.round(v * 100), lang) : String(v));
  const title = t(`staffReports.chart.${report}`);
  return (
    <figure className="staff-figure reports-figure">
      <figcaption>{title}</figcaption>
      <BarChart
        rtl={i18n.dir(lang) === 'rtl'}
        horizontal
        summary={t('staffReports.chartSummary', {
          list: chart.labels.map((l, i) => `${l} ${shown(chart.values[i])}`).join('; '),
        })}
        labels={chart.labels}
        series={[{ label: title, data: chart.values, tone: 'sold' }]}
        height={Math.max(120, 48 + chart.labels.length * 30)}
      />
      {chart.groups > CHART_BARS && (
        <p className="reports-figure__more">{t('staffReports.chartMore', { count: CHART_BARS })}</p>
      )}
    </figure>
  );
}
