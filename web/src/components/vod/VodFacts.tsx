import { useTranslation } from 'react-i18next';
import type { components } from '../../lib/api/schema';
import { DateTime } from '../ui/DateTime';

export type VodItem = components['schemas']['VodItem'];
/**
 * A video-on-demand purchase's facts (spec 3 "Video on demand item"): rent or buy, when it may be
 * watched, the viewings left and used, the last viewing and the purchase date.
 */
export function VodFacts({ item, className }: { item: VodItem; className: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <dl className={className}>
      <div>
        <dt>{t('vod.offer.label')}</dt>
        <dd>{t(item.offer === 'buy' ? 'vod.offer.buy' : 'vod.offer.rent')}</dd>
      </div>
      <div>
        <dt>{t('customerArea.vod.from')}</dt>
        <dd>
          <DateTime iso={item.availabilityStart} lang={lang} />
        </dd>
      </div>
      {item.availabilityEnd && (
        <div>
          <dt>{t('customerArea.vod.until')}</dt>
          <dd>
            <DateTime iso={item.availabilityEnd} lang={lang} />
          </dd>
        </div>
      )}
      <div>
        <dt>{t('customerArea.vod.balance')}</dt>
        <dd>
          {t('customerArea.vod.balanceValue', {
            left: item.playbackBalance,
            used: item.playbackCount,
          })}
        </dd>
      </div>
      {item.lastPlayback && (
        <div>
          <dt>{t('vod.lastPlayback')}</dt>
          <dd>
            <DateTime iso={item.lastPlayback} lang={lang} />
          </dd>
        </div>
      )}
      {item.purchaseDate && (
        <div>
          <dt>{t('customerArea.vod.purchased')}</dt>
          <dd>
            <DateTime iso={item.purchaseDate} lang={lang} />
          </dd>
        </div>
      )}
    </dl>
  );
}
