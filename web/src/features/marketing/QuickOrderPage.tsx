import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LangLink } from '../../components/ui/LangLink';
import { Loading } from '../../components/ui/Loading';
import { errorMessage } from '../../lib/apiErrors';
import { useDocumentTitle } from '../../lib/documentTitle';
import { formatDayMonth, formatTime, formatWeekday } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import { useUpcoming } from './api';
import { quickOrderChoices, type QuickOrderPick } from './model/schedule';
import './marketing.css';

type Step = 'complex' | 'feature' | 'date';
const NEXT: Record<Step, Step | null> = { complex: 'feature', feature: 'date', date: null };

/**
 * Quick order in four taps: complex, feature, date, time; the time opens the normal order.
 * Each pick lives in the address (?complex=&feature=&date=), so back goes one step back.
 */
export default function QuickOrderPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [params, setParams] = useSearchParams();
  const title = t('marketing.quick.title');
  useDocumentTitle(title);
  const upcoming = useUpcoming();
  const num = (key: string) => {
    const n = Number(params.get(key));
    return Number.isInteger(n) && n > 0 ? n : undefined;
  };
  const pick: QuickOrderPick = {
    locationId: num('complex'),
    featureId: num('feature'),
    date: params.get('date') ?? undefined,
  };
  const choices = quickOrderChoices(upcoming.data?.presentations ?? [], pick);

  function choose(step: Step, value: string) {
    const next = new URLSearchParams(params);
    next.set(step, value);
    // A new pick clears the steps after it.
    for (let s = NEXT[step]; s; s = NEXT[s]) next.delete(s);
    setParams(next);
  }

  if (upcoming.isPending) return <Loading block />;
  if (upcoming.isError) return <p role="alert">{errorMessage(t, upcoming.error)}</p>;

  const option = (step: Step, value: string, label: string, selected: boolean, sub?: string) => (
    <li key={value}>
      <button
        type="button"
        className={`mk-choice${selected ? ' mk-choice--on' : ''}`}
        aria-pressed={selected}
        onClick={() => choose(step, value)}
      >
        <span>{label}</span>
        {sub && <span className="mk-muted">{sub}</span>}
      </button>
    </li>
  );

  return (
    <article className="mk-page" aria-labelledby="mk-title">
      <h1 id="mk-title" className="page-title">
        {title}
      </h1>
      <p className="mk-lead">{t('marketing.quick.lead')}</p>
      <ol className="mk-steps">
        <li className="mk-step">
          <h2>{t('marketing.quick.complex')}</h2>
          <ul className="mk-choices">
            {choices.complexes.map((p) =>
              option(
                'complex',
                String(p.locationId),
                localizedName(lang, p.locationName, p.locationNameEn),
                p.locationId === pick.locationId,
              ),
            )}
          </ul>
        </li>
        {pick.locationId !== undefined && (
          <li className="mk-step">
            <h2>{t('marketing.quick.feature')}</h2>
            {choices.features.length === 0 ? (
              <p>{t('marketing.quick.nothing')}</p>
            ) : (
              <ul className="mk-choices">
                {choices.features.map((p) =>
                  option(
                    'feature',
                    String(p.featureId),
                    localizedName(lang, p.featureName, p.featureNameEn),
                    p.featureId === pick.featureId,
                  ),
                )}
              </ul>
            )}
          </li>
        )}
        {pick.featureId !== undefined && (
          <li className="mk-step">
            <h2>{t('marketing.quick.date')}</h2>
            <ul className="mk-choices">
              {choices.dates.map((d) =>
                option('date', d, formatWeekday(d, lang), d === pick.date, formatDayMonth(d, lang)),
              )}
            </ul>
          </li>
        )}
        {pick.date !== undefined && (
          <li className="mk-step">
            <h2>{t('marketing.quick.time')}</h2>
            <ul className="mk-choices">
              {choices.times.map((p) => (
                <li key={p.id}>
                  <LangLink to={`/order/${p.id}`} className="mk-choice mk-choice--go">
                    <span>{formatTime(p.dateTime, lang)}</span>
                    <span className="mk-muted">
                      {localizedName(lang, p.venueName, p.venueNameEn)}
                    </span>
                  </LangLink>
                </li>
              ))}
            </ul>
          </li>
        )}
      </ol>
    </article>
  );
}
