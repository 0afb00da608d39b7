import type { ReactNode } from 'react';
import './Notice.css';

/** A centred message panel for empty, unavailable and error states. */
export function Notice({
  title,
  headingLevel = 1,
  children,
  tone = 'neutral',
  code,
}: {
  title: string;
  headingLevel?: 1 | 2;
  children?: ReactNode;
  tone?: 'neutral' | 'error';
  code?: string | number;
}) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section className={`notice notice--${tone}`}>
      {code !== undefined && (
        <p className="notice__code" aria-hidden="true">
          {code}
        </p>
      )}
      <Heading className="notice__title">{title}</Heading>
      {children && <div className="notice__body">{children}</div>}
    </section>
  );
}
