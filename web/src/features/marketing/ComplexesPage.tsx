import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import { Loading } from '../../components/ui/Loading';
import { errorMessage } from '../../lib/apiErrors';
import { useDocumentTitle } from '../../lib/documentTitle';
import { localizedName } from '../../lib/localized';
import { useComplexes, type Complex } from './api';
import './marketing.css';

/** The address with its city, unless the catalogue's address already names it. */
function withCity(address: string, city: string): string {
  return !city || address.includes(city) ? address : `${address}, ${city}`;
}

/** One complex: address with its map link, phone, parking and accessibility. */
export function ComplexCard({ complex: c }: { complex: Complex }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const name = localizedName(lang, c.name, c.nameEn);
  return (
    <section className="mk-card" aria-labelledby={`complex-${c.id}-title`} id={`complex-${c.id}`}>
      <h2 id={`complex-${c.id}-title`} className="mk-card__title">
        {name}
      </h2>
      <dl className="mk-facts">
        <dt>{t('marketing.complex.address')}</dt>
        <dd>
          {withCity(
            localizedName(lang, c.address, c.addressEn),
            localizedName(lang, c.city, c.cityEn),
          )}{' '}
          <a href={c.mapUrl} target="_blank" rel="noopener noreferrer" className="mk-link">
            {t('marketing.complex.map')}
            <span className="visually-hidden"> {t('marketing.newTab')}</span>
          </a>
        </dd>
        {c.phone && (
          <>
            <dt>{t('marketing.complex.phone')}</dt>
            <dd>
              <a href={`tel:${c.phone.replace(/[^\d+]/g, '')}`} dir="ltr" className="mk-link">
                {c.phone}
              </a>
            </dd>
          </>
        )}
        <dt>{t('marketing.complex.parking')}</dt>
        <dd>{localizedName(lang, c.parking, c.parkingEn) || t('marketing.complex.noInfo')}</dd>
        <dt>{t('marketing.complex.accessibility')}</dt>
        <dd>
          {localizedName(lang, c.accessibility, c.accessibilityEn) || t('marketing.complex.noInfo')}
        </dd>
      </dl>
      <LangLink to={`/quick-order?complex=${c.id}`} className="button button--primary">
        {t('marketing.complex.buy', { name })}
      </LangLink>
    </section>
  );
}

export default function ComplexesPage() {
  const { t } = useTranslation();
  const title = t('marketing.complexes.title');
  useDocumentTitle(title);
  const complexes = useComplexes();
  return (
    <article className="mk-page" aria-labelledby="mk-title">
      <h1 id="mk-title" className="page-title">
        {title}
      </h1>
      {complexes.isPending ? (
        <Loading />
      ) : complexes.isError ? (
        <p role="alert">{errorMessage(t, complexes.error)}</p>
      ) : (
        <div className="mk-grid">
          {complexes.data.complexes.map((c) => (
            <ComplexCard key={c.id} complex={c} />
          ))}
        </div>
      )}
    </article>
  );
}
