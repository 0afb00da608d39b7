import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { useDocumentTitle } from '../../lib/documentTitle';
import { useConfig } from '../../lib/config';
import { formatLongDate, isCalendarDate, todayInCinema } from '../../lib/format';
import { useFeatures, usePresentationsByDate } from './api';
import { DateStrip } from './components/DateStrip';
import { FeatureCard } from './components/FeatureCard';
import { PresentationList } from './components/PresentationList';
import { ViewTabs } from './components/ViewTabs';
import { VIEWS, panelId, tabId, type ScheduleView } from './views';
import { chronological, groupByFeature, stripDays } from './schedule';
import './WhatsOnPage.css';
import { ErrorNotice } from '../../components/ui/ErrorNotice';

/**
 * The index: what's on from today to the last day with screenings on sale (at least a
 * fortnight), by feature or by presentation.
 */
export default function WhatsOnPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  useDocumentTitle(t('whatsOn.title'));

  const { areas } = useConfig();
  const [params, setParams] = useSearchParams();
  // Fixed for the life of the page: the strip does not jump while someone is choosing.
  const [today] = useState(() => todayInCinema());
  const requestedDate = params.get('date') ?? '';
  const date = isCalendarDate(requestedDate) ? requestedDate : today;
  const requestedView = params.get('view') as ScheduleView | null;
  const view: ScheduleView =
    requestedView && VIEWS.includes(requestedView) ? requestedView : 'feature';

  // Date and view live in the URL (next to ?lang) so back, reload and a shared link keep them.
  function update(key: 'date' | 'view', value: string) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(key, value);
        return next;
      },
      { replace: key === 'view' },
    );
  }

  const schedule = usePresentationsByDate(date);
  const saleDates = schedule.data?.saleDates;
  const days = useMemo(() => stripDays(today, saleDates ?? []), [today, saleDates]);
  // A ?date= the strip does not offer (past, or after the last day on sale) is said to be so,
  // never silently swapped for today; it is judged once the server has said what is on sale.
  const offered = days.includes(date) || (!saleDates && date >= today);
  const presentations = useMemo(
    () => (schedule.data?.presentations ?? []).filter((p) => areas.vod || !p.isVod),
    [schedule.data, areas.vod],
  );
  const groups = useMemo(() => groupByFeature(presentations), [presentations]);
  const ordered = useMemo(() => chronological(presentations), [presentations]);
  const features = useFeatures(groups.map((g) => g.featureId));
  const featureById = useMemo(
    () => new Map((features.data?.features ?? []).map((f) => [f.id, f])),
    [features.data],
  );

  return (
    <div className="whats-on">
      <div className="whats-on__head">
        <h1 className="page-title">{t('whatsOn.title')}</h1>
        <ViewTabs view={view} onChange={(v) => update('view', v)} />
      </div>
      <DateStrip days={days} today={today} selected={date} onSelect={(d) => update('date', d)} />

      <div
        id={panelId(view)}
        role="tabpanel"
        aria-labelledby={tabId(view)}
        className={
          schedule.isPlaceholderData ? 'whats-on__panel whats-on__panel--stale' : 'whats-on__panel'
        }
        aria-busy={schedule.isFetching}
      >
        <p className="whats-on__date">{formatLongDate(date, lang)}</p>
        {schedule.isPending ? (
          <Loading />
        ) : schedule.isError ? (
          <ErrorNotice
            title={t('whatsOn.loadError')}
            headingLevel={2}
            error={schedule.error}
            onRetry={() => void schedule.refetch()}
          />
        ) : !offered ? (
          <Notice title={t('whatsOn.notOffered')} headingLevel={2}>
            <p>
              {t('whatsOn.notOfferedDetail', {
                first: formatLongDate(days[0], lang),
                last: formatLongDate(days[days.length - 1], lang),
              })}
            </p>
            <p>
              <button
                type="button"
                className="button button--primary"
                onClick={() => update('date', today)}
              >
                {t('whatsOn.showToday')}
              </button>
            </p>
          </Notice>
        ) : presentations.length === 0 ? (
          <Notice title={t('whatsOn.empty')} headingLevel={2} />
        ) : view === 'feature' ? (
          <div className="feature-grid">
            {groups.map((group, index) => (
              <FeatureCard
                key={group.featureId}
                group={group}
                feature={featureById.get(group.featureId)}
                eager={index < 2}
              />
            ))}
          </div>
        ) : (
          <PresentationList presentations={ordered} />
        )}
      </div>
    </div>
  );
}
