// A back-office list as every one of its pages shows it: a spinner while it loads, the error if
// it did not, a notice when there is nothing, else a table in a region that scrolls sideways on
// a tablet (focusable, named by the page's title) with its header row.
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../components/ui/Loading';
import { Notice } from '../../../components/ui/Notice';
import { errorMessage } from '../../../lib/apiErrors';
import './backoffice.css';

/** A column's header: its words, or words only a screen reader needs (an actions column). */
export type Column = string | { hidden: string };

export function StaffTable<T>({
  query,
  rows,
  labelledBy,
  tableClass,
  columns,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  /** How many rows the answer has (none: the `empty` notice instead of the table). */
  rows: (data: T) => number;
  /** The id of the heading that names the list. */
  labelledBy: string;
  tableClass: string;
  columns: Column[];
  /** What to say when there are no rows; without it, an empty table is shown. */
  empty?: string;
  /** The table's rows. */
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const { data } = query;
  return (
    <>
      {query.isPending && <Loading block />}
      {query.error && <Notice tone="error" title={errorMessage(t, query.error)} />}
      {data !== undefined && empty !== undefined && rows(data) === 0 && (
        <Notice tone="neutral" title={empty} />
      )}
      {data !== undefined && (empty === undefined || rows(data) > 0) && (
        <div className="backoffice__scroll" tabIndex={0} role="region" aria-labelledby={labelledBy}>
          <table className={tableClass}>
            <thead>
              <tr>
                {columns.map((c) =>
                  typeof c === 'string' ? (
                    <th key={c} scope="col">
                      {c}
                    </th>
                  ) : (
                    <th key={c.hidden} scope="col">
                      <span className="visually-hidden">{c.hidden}</span>
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>{children(data)}</tbody>
          </table>
        </div>
      )}
    </>
  );
}
