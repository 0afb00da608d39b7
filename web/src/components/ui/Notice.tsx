import type { ReactNode } from 'react';
import { LangLink } from './LangLink';
import './Notice.css';

/**
 * A centred message panel for empty, unavailable and error states; `action`, the way on from it
 * (a primary button under its words).
 */
export function Notice({
  title,
  headingLevel = 1,
  children,
  tone = 'neutral',
  code,
  action,
}: {
  title: string;
  headingLevel?: 1 | 2;
  children?: ReactNode;
  tone?: 'neutral' | 'error';
  code?: string | number;
  action?: { to: string; label: string };
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
      {(children || action) && (
        <div className="notice__body">
          {children}
          {action && (
            <p>
              <LangLink className="button button--primary" to={action.to}>
                {action.label}
              </LangLink>
            </p>
          )}
        </div>
      )}
    </section>
  );
}
