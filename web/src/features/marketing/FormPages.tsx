// The three form pages: contact (with the chain's service details), birthdays and jobs.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../lib/documentTitle';
import { InquiryForm } from './InquiryForm';
import type { InquiryKind } from './model/inquiry';
import './marketing.css';

interface Section {
  heading: string;
  paragraphs: string[];
}

function FormPage({ kind, children }: { kind: InquiryKind; children?: ReactNode }) {
  const { t } = useTranslation();
  const title = t(`marketing.${kind}.title`);
  useDocumentTitle(title);
  return (
    <article className="mk-page" aria-labelledby="mk-title">
      <h1 id="mk-title" className="page-title">
        {title}
      </h1>
      <p className="mk-lead">{t(`marketing.${kind}.lead`)}</p>
      <div className="mk-columns">
        <InquiryForm kind={kind} />
        {children && <aside className="mk-aside">{children}</aside>}
      </div>
    </article>
  );
}

export function ContactPage() {
  const { t } = useTranslation();
  // The demo chain's service details, the words the legal pages' contact section has always had.
  const sections = t('legal.contact.sections', { returnObjects: true }) as unknown as Section[];
  return (
    <FormPage kind="contact">
      {Array.isArray(sections) &&
        sections.map((section) => (
          <section key={section.heading}>
            <h2>{section.heading}</h2>
            {section.paragraphs.map((p) => (
              <p key={p}>{p}</p>
            ))}
          </section>
        ))}
    </FormPage>
  );
}

export function BirthdaysPage() {
  const { t } = useTranslation();
  const points = t('marketing.birthday.points', { returnObjects: true }) as unknown as string[];
  return (
    <FormPage kind="birthday">
      <h2>{t('marketing.birthday.includes')}</h2>
      <ul>{Array.isArray(points) && points.map((p) => <li key={p}>{p}</li>)}</ul>
    </FormPage>
  );
}

export function JobsPage() {
  const { t } = useTranslation();
  const points = t('marketing.job.points', { returnObjects: true }) as unknown as string[];
  return (
    <FormPage kind="job">
      <h2>{t('marketing.job.positions')}</h2>
      <ul>{Array.isArray(points) && points.map((p) => <li key={p}>{p}</li>)}</ul>
    </FormPage>
  );
}

export default ContactPage;
