import { useTranslation } from 'react-i18next';
import { LangLink } from '../../../components/ui/LangLink';
import type { Presentation, SaleState, SalesClosed } from '../../../lib/api/types';
import { useConfig } from '../../../lib/config';
import { formatDateTime, formatTime } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';

/**
 * What a buyer can do with one presentation: buy (on sale), watch (video on demand) or nothing
 * yet. `chip` is the compact time button of the by-feature view; `button` the full one of the
 * by-presentation list.
 */
export function ShowtimeAction({
  presentation: p,
  variant,
}: {
  presentation: Presentation;
  variant: 'chip' | 'button';
}) {
  const { t, i18n } = useTranslation();
  const { routes } = useConfig();
  const lang = i18n.language;
  const feature = localizedName(lang, p.featureName, p.featureNameEn);
  const venue = localizedName(lang, p.venueName, p.venueNameEn);
  const time = formatTime(p.dateTime, lang);

  if (p.isVod) {
    // A film can be rented and bought: the venue ("Kupa at Home – Rent") tells them apart.
    const label = t('vod.watchAt', { feature, venue });
    return (
      <LangLink
        className={variant === 'chip' ? 'showtime showtime--vod' : 'button button--vod'}
        to={`${routes.vod}?presentationId=${p.id}`}
        aria-label={label}
      >
        {variant === 'chip' ? (
          <>
            <span className="showtime__time">{t('whatsOn.watchNow')}</span>
            <span className="showtime__venue">{venue}</span>
          </>
        ) : (
          t('whatsOn.watchNow')
        )}
      </LangLink>
    );
  }

  if (p.isOnSale) {
    const label = t('whatsOn.buyAt', { feature, time, venue });
    return (
      <LangLink
        className={variant === 'chip' ? 'showtime' : 'button button--primary'}
        to={`/order/${p.id}`}
        aria-label={label}
      >
        {variant === 'chip' ? (
          <>
            <time className="showtime__time" dateTime={p.dateTime}>
              {time}
            </time>
            <span className="showtime__venue">{venue}</span>
          </>
        ) : (
          t('whatsOn.buy')
        )}
      </LangLink>
    );
  }

  // saleState is the server's verdict at its own clock; the visitor's clock may be wrong.
  const saleState = p.saleState as SaleState;
  // A manager's sales switch (decision 0067): the reason in the storefront's words, e.g. "book at
  // the box office", instead of a dead end.
  const closed = saleState === 'onSale' ? (p.salesClosed as SalesClosed | null | undefined) : null;
  const reason = closed
    ? t(`errors.${closed}`)
    : saleState === 'notYetStarted' && p.saleStartsAt
      ? t('whatsOn.saleOpens', { date: formatDateTime(p.saleStartsAt, lang) })
      : saleState === 'ended'
        ? t('whatsOn.saleEnded')
        : t('whatsOn.notOnSale');
  return variant === 'chip' ? (
    <span className="showtime showtime--off">
      <time className="showtime__time" dateTime={p.dateTime}>
        {time}
      </time>
      <span className="showtime__venue">{reason}</span>
    </span>
  ) : (
    <span className="schedule__off">{reason}</span>
  );
}
