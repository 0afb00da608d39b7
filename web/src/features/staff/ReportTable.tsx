// A report's table: sorted by any column (a header button; aria-sort on the column), shown a page
// at a time, with the totals row the server sums. On paper the whole table prints, every page.
// Its parent keys it by report, range and businesses, so new rows start unsorted on page 1.
import { useEffect, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import {
  PAGE_SIZE,
  cellValue,
  columnLabel,
  formatCell,
  nextSort,
  pageButtons,
  pageCount,
  pageOf,
  sortRows,
  type ReportColumn,
  type ReportData,
  type SortOrder,
} from './reportsModel';

/**
 * Whether the page is being printed (or shown as print media): the table then holds every row.
 * `beforeprint` renders them at once (flushSync) so the print preview already has them.
 */
function usePrinting(): boolean {
  const [printing, setPrinting] = useState(
    () => typeof window !== 'undefined' && window.matchMedia?.('print').matches === true,
  );
  useEffect(() => {
    const media = window.matchMedia?.('print');
    const onMedia = () => setPrinting(media?.matches === true);
    const before = () => flushSync(() => setPrinting(true));
    const after = () => setPrinting(media?.matches === true);
    media?.addEventListener('change', onMedia);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      media?.removeEventListener('change', onMedia);
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, []);
  return printing;
}

const NUMERIC = new Set(['count', 'money', 'percent']);

export function ReportTable({ data, caption }: { data: ReportData; caption: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const rtl = i18n.dir(lang) === 'rtl';
  const [order, setOrder] = useState<SortOrder | null>(null);
  const [page, setPage] = useState(1);
  const printing = usePrinting();
  const sorted = useMemo(() => sortRows(data.rows, data.columns, order, lang), [data, order, lang]);
  const pages = pageCount(sorted.length);
  const current = Math.min(page, pages);
  const shown = printing ? sorted : pageOf(sorted, current);
  const first = sorted.length === 0 ? 0 : (current - 1) * PAGE_SIZE + 1;
  const last = Math.min(current * PAGE_SIZE, sorted.length);

  const sortBy = (column: ReportColumn) => {
    setOrder((o) => nextSort(o, column));
    setPage(1);
  };
  const cellClass = (c: ReportColumn) =>
    NUMERIC.has(c.kind) ? 'reports-num' : c.kind === 'text' ? 'reports-text' : 'reports-nowrap';

  return (
    <div className="reports-table">
      {/* Scrolls sideways only when a column is too wide: focusable, so keys can scroll it. */}
      <div className="reports-table__scroll" role="region" aria-label={caption} tabIndex={0}>
        <table className="staff-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              {data.columns.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={cellClass(c)}
                  aria-sort={order?.key === c.key ? order.direction : undefined}
                >
                  <button type="button" className="reports-sort" onClick={() => sortBy(c)}>
                    {columnLabel(c, lang)}
                    <span className="reports-sort__mark" aria-hidden="true">
                      {order?.key === c.key ? (order.direction === 'ascending' ? '▲' : '▼') : ''}
                    </span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, i) => (
              <tr key={i}>
                {data.columns.map((c) => (
                  <td key={c.key} className={cellClass(c)}>
                    {formatCell(cellValue(row, c, lang), c.kind, lang)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          {data.totals && (
            <tfoot>
              <tr className="staff-table__total">
                {data.columns.map((c, i) => {
                  const total = data.totals?.[c.key];
                  if (total !== undefined)
                    return (
                      <td key={c.key} className={cellClass(c)}>
                        {formatCell(total, c.kind, lang)}
                      </td>
                    );
                  return i === 0 ? (
                    <th key={c.key} scope="row">
                      {t('staffReports.total')}
                    </th>
                  ) : (
                    <td key={c.key} />
                  );
                })}
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      {sorted.length > 0 && (
        <nav className="reports-pager" aria-label={t('staffReports.pages')}>
          <p className="reports-pager__rows">
            {t('staffReports.rowsOf', { first, last, count: sorted.length })}
          </p>
          {pages > 1 && (
            <ul>
              <li>
                <button
                  type="button"
                  className="staff-button staff-button--quiet"
                  disabled={current === 1}
                  onClick={() => setPage(current - 1)}
                  aria-label={t('staffReports.previous')}
                >
                  <span aria-hidden="true">{rtl ? '›' : '‹'}</span>
                </button>
              </li>
              {pageButtons(current, pages).map((p, i) =>
                p === null ? (
                  <li key={`gap-${i}`} aria-hidden="true">
                    …
                  </li>
                ) : (
                  <li key={p}>
                    <button
                      type="button"
                      className="staff-button staff-button--toggle"
                      aria-current={p === current ? 'page' : undefined}
                      aria-label={t('staffReports.page', { page: p })}
                      onClick={() => setPage(p)}
                    >
                      {p}
                    </button>
                  </li>
                ),
              )}
              <li>
                <button
                  type="button"
                  className="staff-button staff-button--quiet"
                  disabled={current === pages}
                  onClick={() => setPage(current + 1)}
                  aria-label={t('staffReports.next')}
                >
                  <span aria-hidden="true">{rtl ? '‹' : '›'}</span>
                </button>
              </li>
            </ul>
          )}
        </nav>
      )}
    </div>
  );
}
