import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDayMonth, formatLongDate, formatWeekday } from '../../../lib/format';

/** Today and the following days; the chosen one is pressed. */
export function DateStrip({
  days,
  today,
  selected,
  onSelect,
}: {
  days: readonly string[];
  today: string;
  selected: string;
  onSelect: (day: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const strip = useRef<HTMLDivElement>(null);
  // A day far along the strip (from a link's ?date=) is scrolled into sight, not left cut off.
  useEffect(() => {
    const pressed = strip.current?.querySelector<HTMLElement>('[aria-pressed="true"]');
    pressed?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [selected, days.length]);
  return (
    <div ref={strip} className="date-strip" role="group" aria-label={t('whatsOn.dates')}>
      {days.map((day, index) => {
        const name =
          day === today
            ? t('whatsOn.today')
            : index === 1
              ? t('whatsOn.tomorrow')
              : formatWeekday(day, lang);
        return (
          <button
            key={day}
            type="button"
            className="date-strip__day"
            aria-pressed={day === selected}
            onClick={() => onSelect(day)}
          >
            {/* The spoken name starts with what is seen ("Today 25/11"), then the whole date. */}
            <span className="date-strip__name">{name}</span>
            <span className="date-strip__date">{formatDayMonth(day, lang)}</span>
            <span className="visually-hidden">, {formatLongDate(day, lang)}</span>
          </button>
        );
      })}
    </div>
  );
}
