import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';

/**
 * A select with its label beside it, not around it: the label's text is then the select's name
 * alone (a label around a select also holds the options' words, and "Hall" would find the ticket
 * group's "As the hall" too).
 */
export function LabelledSelect({
  label,
  className,
  children,
  ...select
}: { label: string; className?: string; children: ReactNode } & Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  'id'
>) {
  const id = useId();
  return (
    <div className={className ?? 'labelled-select'}>
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select}>
        {children}
      </select>
    </div>
  );
}
