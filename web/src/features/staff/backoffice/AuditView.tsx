// The back office's audit (issue 18 item 6): every change — a screening added, moved or
// cancelled, its ticket group or a channel of it set, a sales switch, a price scheduled from a
// day or withdrawn — with who made it, when, and what changed (before → after), newest first,
// filtered by kind and complex, a page at a time. Managers only.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatLongDate, formatMoney } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import { choicesQuery } from '../programme/api';
import {
  AUDIT_KINDS,
  auditQuery,
  isAuditField,
  type AuditEntry,
  type AuditKind,
  type Channel,
} from './api';
import { diff } from './model';
import { StaffTable } from './StaffTable';
import './backoffice.css';
import { NameOptions } from '../NameOptions';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export function AuditView() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [kind, setKind] = useState('');
  const [locationId, setLocationId] = useState<number | null>(null);
  // The cursors of the pages read so far: the last is the page shown (null: the newest).
  const [cursors, setCursors] = useState<(number | null)[]>([null]);
  const before = cursors[cursors.length - 1];
  const page = useQuery(auditQuery({ kind, locationId, before }));
  const choices = useQuery(choicesQuery());
  const complexes = choices.data?.complexes ?? [];
  const complexName = (id: number | null | undefined) => {
    // A business's prices belong to no one complex.
    if (id === null || id === undefined) return t('staffAudit.wholeBusiness');
    const c = complexes.find((x) => x.id === id);
    return c ? localizedName(lang, c.name, c.nameEn) : String(id);
  };
  const hallName = (id: number) => {
    for (const c of complexes) {
      const h = c.halls.find((x) => x.id === id);
      if (h) return localizedName(lang, h.name, h.nameEn);
    }
    return String(id);
  };
  const filmName = (id: number) => {
    const f = choices.data?.features.find((x) => x.id === id);
    return f ? localizedName(lang, f.name, f.nameEn) : String(id);
  };
  const show = (field: string, v: unknown): string => {
    if (v === null || v === undefined) return '—';
    // A complex's "offline" reads as the switch the manager flips: Online on or off.
    if (field === 'offline' && typeof v === 'boolean')
      return v ? t('staffSwitches.off') : t('staffSwitches.on');
    // A product's picture: uploaded or the generated one, not "on" or "off".
    if (field === 'uploaded' && typeof v === 'boolean')
      return v ? t('staffAudit.picture.uploaded') : t('staffAudit.picture.generated');
    if (typeof v === 'boolean') return v ? t('staffSwitches.on') : t('staffSwitches.off');
    if (field === 'channel' && typeof v === 'string')
      return t(`staffSwitches.channels.${v as Channel}`);
    if (field === 'venueId' && typeof v === 'number') return hallName(v);
    if (field === 'featureId' && typeof v === 'number') return filmName(v);
    if (field === 'locationId' && typeof v === 'number') return complexName(v);
    if (field === 'ticketGroupId') {
      const g = choices.data?.ticketGroups.find((x) => x.id === v);
      if (v === null) return t('staffProgramme.ticketGroup.asHall');
      return g ? localizedName(lang, g.name, g.nameEn) : String(v);
    }
    if (field === 'locationIds' && Array.isArray(v)) {
      return v.length === 0
        ? t('staffProducts.everywhere')
        : v.map((id) => (typeof id === 'number' ? complexName(id) : String(id))).join(', ');
    }
    if ((field === 'price' || field === 'amount') && typeof v === 'number')
      return formatMoney(v, lang);
    if (field === 'percentBp' && typeof v === 'number') return `${v / 100}%`;
    if (field === 'effectiveFrom' && typeof v === 'string') return formatLongDate(v, lang);
    if (typeof v === 'string' && ISO.test(v)) return formatDateTime(v, lang);
    return String(v);
  };
  // Where a change was made: the chain's own (a film, a product of several businesses), a
  // product sold at several complexes of one business, a whole business (its prices), or a complex.
  const where = (c: AuditEntry) => {
    if (c.businessId === null || c.businessId === undefined) return t('staffAudit.chain');
    if ((c.locationId === null || c.locationId === undefined) && c.kind.startsWith('product'))
      return t('staffAudit.severalComplexes');
    return complexName(c.locationId);
  };
  const restart = () => setCursors([null]);
  // A film's or a product's change names it by its id (kept in its before and after).
  const subject = (c: AuditEntry) => {
    const id = (c.after as { id?: unknown } | null)?.id;
    if (typeof id !== 'number') return null;
    if (c.kind.startsWith('film')) return t('staffAudit.film', { id });
    if (c.kind.startsWith('product')) return t('staffAudit.product', { id });
    return null;
  };

  return (
    <section className="backoffice" aria-labelledby="audit-title">
      <h2 id="audit-title" className="backoffice__title">
        {t('staffAudit.title')}
      </h2>
      <div className="backoffice__bar">
        <label className="backoffice__field">
          {t('staffAudit.kind')}
          <select
            value={kind}
            onChange={(e) => {
              setKind(e.target.value);
              restart();
            }}
          >
            <option value="">{t('staffAudit.allKinds')}</option>
            {AUDIT_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`staffAudit.kinds.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="backoffice__field">
          {t('staffProgramme.complex')}
          <select
            value={locationId ?? ''}
            onChange={(e) => {
              setLocationId(e.target.value ? Number(e.target.value) : null);
              restart();
            }}
          >
            <option value="">{t('staffAudit.allComplexes')}</option>
            <NameOptions items={complexes} />
          </select>
        </label>
      </div>
      <StaffTable
        query={page}
        rows={(d) => d.changes.length}
        labelledBy="audit-title"
        tableClass="audit"
        empty={t('staffAudit.none')}
        columns={[
          t('staffAudit.when'),
          t('staffAudit.who'),
          t('staffAudit.what'),
          t('staffAudit.change'),
        ]}
      >
        {(data) =>
          data.changes.map((c) => (
            <tr key={c.id}>
              <td>
                <bdi>{formatDateTime(c.at, lang)}</bdi>
              </td>
              <td>{c.by}</td>
              <td>
                {t(`staffAudit.kinds.${c.kind as AuditKind}`)}
                <span className="audit__where">
                  {where(c)}
                  {c.presentationId !== null && c.presentationId !== undefined && (
                    <> · {t('staffAudit.screening', { id: c.presentationId })}</>
                  )}
                  {subject(c) && <> · {subject(c)}</>}
                </span>
              </td>
              <td>
                <ul className="audit__diff">
                  {diff(c.before, c.after).map((d) => (
                    <li key={d.field}>
                      <span className="audit__field">
                        {isAuditField(d.field) ? t(`staffAudit.fields.${d.field}`) : d.field}:
                      </span>{' '}
                      {c.before !== null && c.before !== undefined && (
                        <>
                          <del>{show(d.field, d.before)}</del>{' '}
                          <span aria-hidden="true">{lang === 'he' ? '←' : '→'}</span>{' '}
                        </>
                      )}
                      <ins>{show(d.field, d.after)}</ins>
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))
        }
      </StaffTable>
      <div className="backoffice__pages">
        <button
          type="button"
          className="staff-button staff-button--quiet"
          disabled={cursors.length < 2}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          {t('staffAudit.newer')}
        </button>
        <button
          type="button"
          className="staff-button staff-button--quiet"
          disabled={!page.data?.nextBefore}
          onClick={() => page.data?.nextBefore && setCursors([...cursors, page.data.nextBefore])}
        >
          {t('staffAudit.older')}
        </button>
      </div>
    </section>
  );
}
