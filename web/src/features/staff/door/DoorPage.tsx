// /PRES-live/door: the usher's door (decision 0044), phone first. The usher chooses the
// presentation they guard (kept in the URL, ?p=, so a reload keeps it), then holds each ticket's
// QR code to the camera or types its number; the answer fills the screen's middle.
import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api/client';
import { formatTime } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/documentTitle';
import { LangLink } from '../../../components/ui/LangLink';
import { Loading } from '../../../components/ui/Loading';
import { Notice } from '../../../components/ui/Notice';
import type { StaffMe } from '../api';
import { doorPresentationsQuery, doorScan, type DoorPresentation, type DoorScan } from './api';
import { DoorAnswer } from './DoorAnswer';
import { QrCamera } from './QrCamera';
import { onceEach } from './model';
import './door.css';

function optionText(p: DoorPresentation, lang: string) {
  const he = lang === 'he';
  return [
    formatTime(p.dateTime, lang),
    he ? p.featureName : p.featureNameEn,
    he ? p.venueName : p.venueNameEn,
    he ? p.locationName : p.locationNameEn,
  ].join(' · ');
}

export function DoorPage({ me }: { me: StaffMe }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  useDocumentTitle(t('door.title'));
  const [params, setParams] = useSearchParams();
  const list = useQuery(doorPresentationsQuery());
  const guarded = Number(params.get('p') ?? NaN);
  const presentation = list.data?.presentations.find((p) => p.id === guarded) ?? null;
  const [answer, setAnswer] = useState<DoorScan | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const busy = useRef(false);
  const seen = useMemo(() => onceEach(), []);

  const check = useCallback(
    async (code: string) => {
      if (!presentation || busy.current) return;
      busy.current = true;
      try {
        const scan = await doorScan(presentation.id, code);
        setFailed(null);
        setAnswer(scan);
      } catch (error) {
        // No answer (the network, or the server failed): the camera tries this code again soon.
        // An answer that refused the check (too many checks, a lost login, a bad code) is not
        // helped by trying again.
        if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500)
          seen.failed(code, Date.now());
        setAnswer(null);
        setFailed(
          error instanceof ApiError && error.status === 429
            ? t('door.failed.tooMany')
            : error instanceof ApiError && error.status === 401
              ? t('door.failed.loggedOut')
              : t('door.failed.other'),
        );
      } finally {
        busy.current = false;
      }
    },
    [presentation, t, seen],
  );

  // A code read while the last check is still out is not counted as seen: it is read again in
  // the next frame and checked then.
  const onCode = useCallback(
    (text: string) => {
      if (!busy.current && seen.fresh(text, Date.now())) void check(text);
    },
    [check, seen],
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const code = typed.trim();
    if (!code) return;
    void check(code).then(() => setTyped(''));
  };

  const choose = (id: string) => {
    const next = new URLSearchParams(params);
    if (id) next.set('p', id);
    else next.delete('p');
    setParams(next);
    setAnswer(null);
    setFailed(null);
  };

  return (
    <main className="staff door">
      <header className="staff__head">
        <h1>{t('door.title')}</h1>
        <p className="staff__who">
          {me.FirstName} {me.LastName} · {t(`staff.roles.${me.role}`)}
        </p>
        <LangLink to="/PRES-live" className="staff-link">
          {t('door.toLive')}
        </LangLink>
      </header>
      {list.isPending && <Loading block />}
      {list.error && <Notice tone="error" headingLevel={2} title={t('staff.loadError')} />}
      {list.data && list.data.presentations.length === 0 && (
        <Notice headingLevel={2} title={t('door.noPresentations')} />
      )}
      {list.data && list.data.presentations.length > 0 && (
        <div className="door__choose">
          <label htmlFor="door-presentation">{t('door.presentation')}</label>
          <select
            id="door-presentation"
            value={presentation ? String(presentation.id) : ''}
            onChange={(e) => choose(e.target.value)}
          >
            <option value="">{t('door.choose')}</option>
            {list.data.presentations.map((p) => (
              <option key={p.id} value={p.id}>
                {optionText(p, lang)}
              </option>
            ))}
          </select>
          {presentation && (
            <p className="door__window">
              {t('door.window', {
                from: formatTime(presentation.entranceTime, lang),
                to: formatTime(presentation.endTime, lang),
              })}
            </p>
          )}
        </div>
      )}
      {presentation && (
        <div className="door__work">
          <DoorAnswer scan={answer} failed={failed} />
          <QrCamera onCode={onCode} />
          <form className="door__typed" onSubmit={submit}>
            <label htmlFor="door-number">{t('door.number')}</label>
            <p id="door-number-hint" className="door__hint">
              {t('door.numberHint')} <bdi dir="ltr">1234-5678-2</bdi>
            </p>
            <div className="door__typed-row">
              <input
                id="door-number"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                aria-describedby="door-number-hint"
                autoComplete="off"
                inputMode="numeric"
                dir="ltr"
                maxLength={300}
              />
              <button type="submit" className="staff-button">
                {t('door.check')}
              </button>
            </div>
          </form>
        </div>
      )}
    </main>
  );
}
