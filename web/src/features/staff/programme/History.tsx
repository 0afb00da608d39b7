// A screening's recorded changes (the programme's audit): who added, moved or cancelled it and
// when, a move with its old and new time. Read when the manager opens it.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/apiErrors';
import { formatDateTime } from '../../../lib/format';
import { historyQuery } from './api';

export function History({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [open, setOpen] = useState(false);
  const history = useQuery({ ...historyQuery(id), enabled: open });
  const when = (v: unknown) => (typeof v === 'string' ? formatDateTime(v, lang) : '');
  return (
    <details className="programme-history" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{t('staffProgramme.history.title')}</summary>
      {history.isError && <p className="programme-error">{errorMessage(t, history.error)}</p>}
      {history.data && history.data.changes.length === 0 && (
        <p>{t('staffProgramme.history.none')}</p>
      )}
      {history.data && history.data.changes.length > 0 && (
        <ol>
          {history.data.changes.map((c, i) => {
            const before = (c.before ?? {}) as Record<string, unknown>;
            const after = c.after as Record<string, unknown>;
            return (
              <li key={i}>
                <bdi>{formatDateTime(c.at, lang)}</bdi> ·{' '}
                {c.kind === 'moved'
                  ? t('staffProgramme.history.moved', {
                      from: when(before.startsAt),
                      to: when(after.startsAt),
                    })
                  : c.kind === 'cancelled'
                    ? t('staffProgramme.history.cancelled')
                    : t('staffProgramme.history.added')}{' '}
                · {c.by}
              </li>
            );
          })}
        </ol>
      )}
    </details>
  );
}
