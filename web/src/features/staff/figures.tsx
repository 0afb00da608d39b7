// The Live data figures, shown the same way in every table and panel.
import { useTranslation } from 'react-i18next';
import type { LiveFigures } from './api';

export function FigureCells({ f }: { f: LiveFigures }) {
  return (
    <>
      <td>{f.Capacity}</td>
      <td>{f.SoldQuantity}</td>
      <td>{f.HeldQuantity}</td>
      <td>
        <Meter percent={f.Sold} held={f.Held} />
      </td>
      <td>{f.Availability}</td>
    </>
  );
}

export function FigureHeads() {
  const { t } = useTranslation();
  return (
    <>
      <th scope="col">{t('staff.figures.capacity')}</th>
      <th scope="col">{t('staff.figures.sold')}</th>
      <th scope="col">{t('staff.figures.held')}</th>
      <th scope="col">{t('staff.figures.percent')}</th>
      <th scope="col">{t('staff.figures.available')}</th>
    </>
  );
}

/** Percent sold (and held beside it) as a bar with its number. */
export function Meter({ percent, held }: { percent: number; held: number }) {
  const { t } = useTranslation();
  return (
    <span className="staff-meter" title={t('staff.figures.percentTitle', { sold: percent, held })}>
      <span className="staff-meter__bar" aria-hidden="true">
        <span className="staff-meter__sold" style={{ inlineSize: `${Math.min(100, percent)}%` }} />
        <span
          className="staff-meter__held"
          style={{ inlineSize: `${Math.min(100 - Math.min(100, percent), held)}%` }}
        />
      </span>
      <span className="staff-meter__value">{percent}%</span>
    </span>
  );
}
