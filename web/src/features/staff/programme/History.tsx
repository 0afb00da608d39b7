// A screening's recorded changes (the programme's audit): who added, moved or cancelled it, set
// its ticket group or a channel of it, and when; a move with its old and new time. Read when the manager opens it.
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
  const describe = (
    kind: string,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
  ): string => {
    switch (kind) {
      case 'moved':
        return t('staffProgramme.history.moved', {
          from: when(before.startsAt),
          to: when(after.startsAt),
        });
      case 'cancelled':
        return t('staffProgramme.history.cancelled');
      case 'ticketGroup':
        return t('staffProgramme.history.ticketGroup');
      case 'screeningChannel':
        return t('staffProgramme.history.screeningChannel', {
          channel: t(`staffSwitches.channels.${after.channel === 'miniSite' ? 'miniSite' : 'web'}`),
          state: after.open
            ? t('staffProgramme.history.opened')
            : t('staffProgramme.history.closed'),
        });
      default:
        return t('staffProgramme.history.added');
    }
  };
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
                <bdi>{formatDateTime(c.at, lang)}</bdi> · {describe(c.kind, before, after)} · {c.by}
              </li>
            );
          })}
        </ol>
      )}
    </details>
  );
}
