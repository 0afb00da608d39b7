import { useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { clearsCart, forgetScreenings } from '../model/earlierScreenings';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../components/ui/DateTime';
import { LangLink } from '../../../components/ui/LangLink';
import { Loading } from '../../../components/ui/Loading';
import { Notice } from '../../../components/ui/Notice';
import { errorMessage } from '../../../lib/apiErrors';
import { useDocumentTitle } from '../../../lib/documentTitle';
import { ApiError } from '../../../lib/api/client';
import { rememberMiniSite } from '../../../lib/api/orderChannel';
import { featurePosterUrl } from '../../../lib/api/client';
import { localizedName, placeName } from '../../../lib/localized';
import type { SalesClosed } from '../../../lib/api/types';
import { usePresentation } from '../api/presentation';
import { OrderFlow } from './OrderFlow';
import './OrderPage.css';

function parseId(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * Where a buy button lands: which screening this is, then the order's steps: seats, tickets,
 * products (when the complex sells any), details and payment, confirmation.
 */
export default function OrderPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const id = parseId(useParams().presentationId);
  // Entered from a mini-site's page (?miniSiteUrl=…; empty: the web shop): kept for the order's
  // calls before the first of them (decision 0050).
  const [params] = useSearchParams();
  const fromSite = params.get('miniSiteUrl');
  useState(() => {
    if (id !== null && fromSite !== null) rememberMiniSite(id, fromSite);
  });
  const query = usePresentation(id);

  const presentation = query.data?.presentation;
  useDocumentTitle(t('screens.order'));
  const clears = presentation ? clearsCart(presentation.venueTypeId) : false;
  useEffect(() => {
    // Choosing a video-on-demand screening of venue type 101 or 102 empties the cart of the
    // others (spec section 4).
    if (clears) forgetScreenings();
  }, [clears]);

  return (
    <div className="order-page">
      <h1 className="page-title">{t('order.title')}</h1>
      {id === null || (query.error instanceof ApiError && query.error.status === 404) ? (
        // The server answered this address with a 404 too (crates/api/src/web.rs).
        <Notice
          title={t('errors.noEvent')}
          headingLevel={2}
          tone="error"
          code={404}
          action={{ to: '/', label: t('order.toWhatsOn') }}
        >
          <p>{t('order.notFoundDetail')}</p>
        </Notice>
      ) : query.isPending ? (
        <Loading />
      ) : query.isError || !presentation ? (
        <Notice title={t('order.loadError')} headingLevel={2} tone="error">
          <p>{errorMessage(t, query.error)}</p>
          <p>
            <button
              type="button"
              className="button button--primary"
              onClick={() => void query.refetch()}
            >
              {t('whatsOn.retry')}
            </button>{' '}
            <LangLink className="button" to="/">
              {t('order.toWhatsOn')}
            </LangLink>
          </p>
        </Notice>
      ) : (
        <>
          <section className="order-summary" aria-labelledby="order-feature-name">
            <img
              className="order-summary__poster"
              src={featurePosterUrl(presentation, lang)}
              alt=""
              width={120}
              height={180}
            />
            <div className="order-summary__details">
              <h2 id="order-feature-name" className="order-summary__name">
                {localizedName(lang, presentation.featureName, presentation.featureNameEn)}
              </h2>
              <dl
                className={`order-summary__facts${presentation.isVod ? ' order-summary__facts--window' : ''}`}
              >
                <div>
                  <dt>{t('order.complex')}</dt>
                  <dd>{placeName(lang, presentation)}</dd>
                </div>
                {presentation.isVod ? (
                  // A film watched at home: when it may be watched, not a hall and a start.
                  <>
                    <div>
                      <dt>{t('customerArea.vod.from')}</dt>
                      <dd>
                        <DateTime iso={presentation.dateTime} lang={lang} />
                      </dd>
                    </div>
                    {presentation.availableUntil && (
                      <div>
                        <dt>{t('customerArea.vod.until')}</dt>
                        <dd>
                          <DateTime iso={presentation.availableUntil} lang={lang} />
                        </dd>
                      </div>
                    )}
                  </>
                ) : (
                  <>
                    <div>
                      <dt>{t('order.venue')}</dt>
                      <dd>
                        {localizedName(lang, presentation.venueName, presentation.venueNameEn)}
                      </dd>
                    </div>
                    <div>
                      <dt>{t('order.dateTime')}</dt>
                      <dd>
                        <DateTime iso={presentation.dateTime} lang={lang} />
                      </dd>
                    </div>
                  </>
                )}
              </dl>
            </div>
          </section>
          {presentation.saleState === 'notYetStarted' ? (
            <Notice title={t('errors.ticketSaleNotStarted')} headingLevel={2} />
          ) : presentation.saleState === 'onSale' && presentation.salesClosed ? (
            <Notice
              title={t(`errors.${presentation.salesClosed as SalesClosed}`)}
              headingLevel={2}
            />
          ) : presentation.saleState === 'ended' || !presentation.isOnSale ? (
            <Notice title={t('errors.ticketingEnded')} headingLevel={2} />
          ) : (
            <OrderFlow key={presentation.id} presentation={presentation} />
          )}
        </>
      )}
    </div>
  );
}
