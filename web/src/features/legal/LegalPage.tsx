import { useTranslation } from 'react-i18next';
import { useConfig } from '../../lib/config';
import type { LegalDoc } from '../../lib/legal';
import { useDocumentTitle } from '../../lib/documentTitle';
import { formatLongDate } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import './LegalPage.css';

/** When the accessibility statement was last checked against the site (the regulations ask). */
const STATEMENT_UPDATED = '2026-11-25';

interface Section {
  heading: string;
  paragraphs: string[];
}

/**
 * The demo chain's legal pages. The words are the demo chain's own (marked as such on the page);
 * the ticket terms come from the catalogue's site config, the same terms the confirmation shows.
 */
export function LegalPage({ doc }: { doc: LegalDoc }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { raw } = useConfig();
  const title = t(`legal.${doc}.title`);
  useDocumentTitle(title);
  const sections = t(`legal.${doc}.sections`, { returnObjects: true }) as unknown as Section[];
  const ticketTerms =
    doc === 'terms' && raw?.confirmation
      ? localizedName(lang, raw.confirmation.orderTerms, raw.confirmation.orderTermsEn)
      : '';

  return (
    <article className="legal-page" aria-labelledby="legal-title">
      <h1 id="legal-title" className="page-title">
        {title}
      </h1>
      <p className="legal-page__demo">{t('legal.demoNote')}</p>
      {sections.map((section) => (
        <section key={section.heading} className="legal-page__section">
          <h2>{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      {ticketTerms && (
        <section className="legal-page__section" id="ticket-terms">
          <h2>{t('legal.terms.ticketTerms')}</h2>
          <p>{ticketTerms}</p>
        </section>
      )}
      {doc === 'accessibility' && (
        <p className="legal-page__updated">
          {t('legal.updated', { date: formatLongDate(STATEMENT_UPDATED, lang) })}
        </p>
      )}
    </article>
  );
}

export function TermsPage() {
  return <LegalPage doc="terms" />;
}
export function PrivacyPage() {
  return <LegalPage doc="privacy" />;
}
export function AccessibilityPage() {
  return <LegalPage doc="accessibility" />;
}
