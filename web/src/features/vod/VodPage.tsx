import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { VodFacts } from '../../components/vod/VodFacts';
import { vodStatus } from '../../components/vod/vodStatus';
import { ApiError } from '../../lib/api/client';
import { errorMessage } from '../../lib/apiErrors';
import { useDocumentTitle } from '../../lib/documentTitle';
import { formatTime } from '../../lib/format';
import { withLang } from '../../lib/lang';
import { localizedName } from '../../lib/localized';
import { useOpenPlaySession, useVodItem, type VodItem } from './api';
import { isUnsupportedBrowser, keepSession, keptSession, type KeptSession } from './model';
import './VodPage.css';

function sessionStore(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

function unsupported(): boolean {
  if (typeof navigator === 'undefined') return false;
  return isUnsupportedBrowser(navigator.userAgent, navigator.maxTouchPoints ?? 0);
}

/**
 * The video-on-demand route (`routes.vod`, spec 1): `?reservation=` is the player of one
 * purchase; `?presentationId=` (What's on's older "watch now") goes to that presentation's order.
 */
export default function VodPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const reservation = params.get('reservation');
  const presentationId = params.get('presentationId');
  useDocumentTitle(t('screens.vod'));

  if (reservation) return <Player reservationId={reservation} />;
  if (presentationId && /^\d+$/.test(presentationId)) {
    return <Navigate replace to={withLang(`/order/${presentationId}`, params.get('lang'))} />;
  }
  return (
    <div className="vod">
      <h1 className="page-title">{t('screens.vod')}</h1>
      <Notice title={t('vod.index')} headingLevel={2}>
        <p>
          <LangLink className="button button--primary" to="/customer-area">
            {t('vod.toArea')}
          </LangLink>{' '}
          <LangLink className="button" to="/">
            {t('order.toWhatsOn')}
          </LangLink>
        </p>
      </Notice>
    </div>
  );
}

function Player({ reservationId }: { reservationId: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const item = useVodItem(reservationId);
  const open = useOpenPlaySession(reservationId);
  const [session, setSession] = useState<KeptSession | null>(() =>
    keptSession(sessionStore(), reservationId, Date.now()),
  );
  const [stopped, setStopped] = useState(false);
  const [blocked] = useState(unsupported);

  const title = item.data
    ? localizedName(lang, item.data.presentation.featureName, item.data.presentation.featureNameEn)
    : t('vod.title');

  const start = () => {
    setStopped(false);
    open.mutate(undefined, {
      onSuccess: (s) => {
        const kept = { streamUrl: s.streamUrl, expiresAt: s.expiresAt };
        keepSession(sessionStore(), reservationId, kept);
        setSession(kept);
      },
    });
  };

  let body: React.ReactNode;
  if (blocked) {
    body = (
      <Notice title={t('vod.unsupported.title')} headingLevel={2} tone="error">
        <p>{t('errors.vodUnsupportedBrowser')}</p>
      </Notice>
    );
  } else if (item.isPending) {
    body = <Loading />;
  } else if (item.isError) {
    const missing = item.error instanceof ApiError && item.error.status === 404;
    body = (
      <Notice
        title={missing ? t('vod.notFound') : t('vod.loadError')}
        headingLevel={2}
        tone="error"
        action={{ to: '/customer-area', label: t('vod.toArea') }}
      >
        {!missing && <p>{errorMessage(t, item.error)}</p>}
      </Notice>
    );
  } else {
    body = (
      <Watch
        item={item.data}
        session={stopped ? null : session}
        stopped={stopped}
        starting={open.isPending}
        failure={open.error}
        onStart={start}
        onStopped={() => setStopped(true)}
      />
    );
  }

  return (
    <div className="vod">
      <h1 className="page-title">{title}</h1>
      {body}
    </div>
  );
}

function Watch({
  item,
  session,
  stopped,
  starting,
  failure,
  onStart,
  onStopped,
}: {
  item: VodItem;
  session: KeptSession | null;
  stopped: boolean;
  starting: boolean;
  failure: unknown;
  onStart: () => void;
  onStopped: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const status = vodStatus(item.status);
  const feature = localizedName(
    lang,
    item.presentation.featureName,
    item.presentation.featureNameEn,
  );

  return (
    <div className="vod__layout">
      <div className="vod__screen">
        {session ? (
          <>
            <video
              className="vod__video"
              src={session.streamUrl}
              controls
              autoPlay
              muted
              playsInline
              preload="auto"
              aria-label={t('vod.playerLabel', { feature })}
              onError={onStopped}
            >
              <track
                kind="captions"
                src={`/vod/demo-film.${lang === 'he' ? 'he' : 'en'}.vtt`}
                srcLang={lang === 'he' ? 'he' : 'en'}
                label={t('vod.captions')}
                default
              />
            </video>
            <p className="vod__hint">
              {t('vod.sessionEnds', { time: formatTime(session.expiresAt, lang) })}
            </p>
          </>
        ) : status !== 'available' ? (
          <Notice title={t(`customerArea.vod.status.${status}`)} headingLevel={2}>
            <p>{t('vod.notWatchable')}</p>
          </Notice>
        ) : item.playbackBalance <= 0 ? (
          <Notice title={t('vod.noBalance')} headingLevel={2} />
        ) : (
          <div className="vod__start">
            <button
              type="button"
              className="button button--primary vod__play"
              onClick={onStart}
              disabled={starting}
            >
              {t('vod.start')}
            </button>
            <p className="vod__hint">{t('vod.startHint', { left: item.playbackBalance })}</p>
            {stopped && failure == null && (
              <p className="vod__error" role="alert">
                {t('vod.playbackStopped')}
              </p>
            )}
            {failure != null && (
              <p className="vod__error" role="alert">
                {errorMessage(t, failure)}
              </p>
            )}
          </div>
        )}
      </div>
      <section className="vod__details" aria-labelledby="vod-details-title">
        <h2 id="vod-details-title" className="vod__heading">
          {t('vod.details')}
          <span className={`vod__badge vod__badge--${status}`}>
            {t(`customerArea.vod.status.${status}`)}
          </span>
        </h2>
        <VodFacts item={item} className="vod__facts" />
        <p>
          <LangLink to="/customer-area">{t('vod.toArea')}</LangLink>
        </p>
      </section>
    </div>
  );
}
