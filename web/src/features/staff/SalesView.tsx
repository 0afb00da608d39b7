// The v2 view (managers): a feature's presentations over a date range, with money, and its
// tickets by the day they were paid as a bar chart. The feature data is loaded through the
// stale-answer guard (spec section 4): switching feature or dates while an answer is on its way
// drops that answer when it comes.
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { formatMoney } from '../../lib/format';
import {
  availableFeaturesQuery,
  fetchFeatureData,
  type CinemaFilterData,
  type PresentationsSalesResponse,
} from './api';
import { PaidByDayChart } from './charts';
import { Meter } from './figures';
import { createLatestGuard, latestOnly } from './latest';

function addDays(ymd: string, days: number): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function SalesView({ filter }: { filter: CinemaFilterData }) {
  const { t, i18n } = useTranslation();
  const he = i18n.language === 'he';
  const [startDate, setStart] = useState(addDays(filter.today, -7));
  const [endDate, setEnd] = useState(filter.today);
  const [featureId, setFeature] = useState<number | null>(null);
  const [locationId, setLocation] = useState<number>(0);
  const [data, setData] = useState<PresentationsSalesResponse | null>(null);
  const [failed, setFailed] = useState(false);
  const features = useQuery(availableFeaturesQuery(startDate, endDate));
  const run = useMemo(() => latestOnly<PresentationsSalesResponse>(createLatestGuard()), []);
  const chosen = featureId ?? features.data?.features[0]?.FeatureId ?? null;
  useEffect(() => {
    if (chosen === null || startDate > endDate) return;
    run(
      () =>
        fetchFeatureData({
          featureId: chosen,
          locationId: locationId || undefined,
          startDate,
          endDate,
        }),
      (d) => {
        setData(d);
        setFailed(false);
      },
    ).catch(() => setFailed(true));
  }, [run, chosen, locationId, startDate, endDate]);
  const money = (agorot: number) => formatMoney(agorot, i18n.language);

  return (
    <section className="staff-sales" aria-labelledby="staff-sales-title">
      <h2 id="staff-sales-title">{t('staff.sales.title')}</h2>
      <div className="staff-filters">
        <label>
          {t('staff.sales.from')}
          <input type="date" value={startDate} onChange={(e) => setStart(e.target.value)} />
        </label>
        <label>
          {t('staff.sales.to')}
          <input type="date" value={endDate} onChange={(e) => setEnd(e.target.value)} />
        </label>
        <label>
          {t('staff.sales.feature')}
          <select
            value={chosen ?? ''}
            onChange={(e) => setFeature(Number(e.target.value))}
            disabled={!features.data}
          >
            {features.data?.features.map((f) => (
              <option key={f.FeatureId} value={f.FeatureId}>
                {he ? f.FeatureName : f.FeatureNameEn}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('staff.sales.location')}
          <select value={locationId} onChange={(e) => setLocation(Number(e.target.value))}>
            <option value={0}>{t('staff.sales.allLocations')}</option>
            {filter.locations
              .filter((l) => l.isCinema)
              .map((l) => (
                <option key={l.id} value={l.id}>
                  {he ? l.name : l.nameEn}
                </option>
              ))}
          </select>
        </label>
      </div>
      {failed && <Notice tone="error" title={t('staff.loadError')} headingLevel={2} />}
      {!data && !failed && <Loading block />}
      {data && (
        <>
          <dl className="staff-figures">
            <div>
              <dt>{t('staff.figures.sold')}</dt>
              <dd>{data.total.SoldQuantity}</dd>
            </div>
            <div>
              <dt>{t('staff.figures.capacity')}</dt>
              <dd>{data.total.Capacity}</dd>
            </div>
            <div>
              <dt>{t('staff.figures.percent')}</dt>
              <dd>{data.total.Sold}%</dd>
            </div>
            <div>
              <dt>{t('staff.sales.revenue')}</dt>
              <dd>{money(data.totalRevenue)}</dd>
            </div>
          </dl>
          {data.salesByDay.length > 0 && <PaidByDayChart days={data.salesByDay} money={money} />}
          <table className="staff-table">
            <caption>{t('staff.box')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('staff.sales.when')}</th>
                <th scope="col">{t('staff.by.venue')}</th>
                <th scope="col">{t('staff.figures.sold')}</th>
                <th scope="col">{t('staff.figures.percent')}</th>
                <th scope="col">{t('staff.sales.revenue')}</th>
              </tr>
            </thead>
            <tbody>
              {data.presentations.map((p) => (
                <tr key={p.PresentationId}>
                  <th scope="row">
                    {new Intl.DateTimeFormat(he ? 'he-IL' : 'en-GB', {
                      day: 'numeric',
                      month: 'numeric',
                      hour: '2-digit',
                      minute: '2-digit',
                      timeZone: 'Asia/Jerusalem',
                    }).format(new Date(p.PresentationDateTime))}
                  </th>
                  <td>{he ? p.VenueName : p.VenueNameEn}</td>
                  <td>{p.SoldQuantity}</td>
                  <td>
                    <Meter percent={p.Sold} held={p.Held} />
                  </td>
                  <td>{money(p.Revenue ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
