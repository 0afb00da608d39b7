import type { ReactNode } from 'react';
import { DateTime } from '../../components/ui/DateTime';

/** One screening of a seated membership: film, date and time (the cinema's zone), hall, seat. */
export function ScreeningLine({
  film,
  dateTime,
  hall,
  seat,
  missing = false,
  lang,
  after,
}: {
  film: string;
  dateTime: string;
  hall: string;
  /** The seat in it, in words; none when the line does not speak of seats. */
  seat?: string;
  /** No seat is held in it. */
  missing?: boolean;
  lang: string;
  /** What follows the seat (a paid seat's digital ticket). */
  after?: ReactNode;
}) {
  return (
    <li className="membership-screenings__item">
      <span className="membership-screenings__when">
        <strong>{film}</strong> <DateTime iso={dateTime} lang={lang} />
      </span>{' '}
      <span className="membership-screenings__hall">{hall}</span>
      {seat !== undefined && (
        <span
          className={`membership-screenings__seat${missing ? ' membership-screenings__seat--none' : ''}`}
        >
          {seat}
        </span>
      )}
      {after}
    </li>
  );
}
