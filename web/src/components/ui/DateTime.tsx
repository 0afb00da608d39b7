import { formatDateTimeParts } from '../../lib/format';
import './DateTime.css';

/**
 * "Friday, 27/11/2026, 20:00" in the cinema's zone. A narrow column may put the weekday, the date
 * and the time on separate lines, never split one of them.
 */
export function DateTime({ iso, lang }: { iso: string; lang: string }) {
  const { weekday, date, time } = formatDateTimeParts(iso, lang);
  return (
    <time dateTime={iso} className="date-time">
      <span className="date-time__part">{weekday},</span>{' '}
      <span className="date-time__part">
        <bdi>{date}</bdi>,
      </span>{' '}
      <span className="date-time__part">
        <bdi>{time}</bdi>
      </span>
    </time>
  );
}
