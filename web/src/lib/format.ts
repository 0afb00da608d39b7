// Money and time for display. Times travel as UTC ISO strings and are always shown in the
// cinema's zone, whatever zone the visitor's device is in.

export const CINEMA_TIME_ZONE = 'Asia/Jerusalem';

/** The Intl locale used to format for an interface language. */
export function intlLocale(lang: string): string {
  switch (lang) {
    case 'he':
      return 'he-IL';
    case 'en':
      return 'en-GB';
    case 'ar':
      // Latin digits: prices and times read the same as on the tickets.
      return 'ar-IL-u-nu-latn';
    default:
      return lang;
  }
}

/**
 * One formatter per locale and options, made once: making an Intl formatter costs far more than
 * formatting with it (the order page made one per showtime, price and date it drew, about a
 * tenth of its work on a slow phone).
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${locale}|${JSON.stringify(options)}`;
  let format = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}

function numberFormat(locale: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${locale}|${JSON.stringify(options ?? {})}`;
  let format = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}

/** Integer agorot → "₪42.00" (the symbol's side follows the language). */
export function formatMoney(agorot: number, lang: string, currency = 'ILS'): string {
  return numberFormat(intlLocale(lang), {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(agorot / 100);
}

function cinemaFormat(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return dateFormat(intlLocale(lang), { timeZone: CINEMA_TIME_ZONE, ...options });
}

/**
 * "Tuesday, 14/07/2026, 20:30" in Asia/Jerusalem: the weekday in the language, the numbers in the
 * day/month/year order Israeli tickets use, whatever the locale's own habit (he-IL writes dots).
 */
export function formatDateTime(iso: string, lang: string): string {
  const { weekday, date, time } = formatDateTimeParts(iso, lang);
  return `${weekday}, ${date}, ${time}`;
}

/** he and en write dates the way Israeli tickets do (14/07/2026); other languages their own way. */
const TICKET_DATE_LANGUAGES = ['he', 'en'];

/**
 * The three pieces of formatDateTime ("Tuesday", "14/07/2026", "20:30"), for screens that must
 * never break a line inside a date or a time (a narrow phone column broke "27/11/2026").
 */
export function formatDateTimeParts(
  iso: string,
  lang: string,
): { weekday: string; date: string; time: string } {
  const instant = new Date(iso);
  const fields = cinemaFormat(lang, {
    weekday: 'long',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    fields.find((f) => f.type === type)?.value ?? '';
  const date = TICKET_DATE_LANGUAGES.includes(lang)
    ? `${get('day')}/${get('month')}/${get('year')}`
    : // The language's own order and separators (14.07.2026, 2026. 07. 14.).
      cinemaFormat(lang, { day: '2-digit', month: '2-digit', year: 'numeric' }).format(instant);
  return { weekday: get('weekday'), date, time: `${get('hour')}:${get('minute')}` };
}

/** A count or amount (not money) with the language's grouping: "1,234", "1 234". */
export function formatNumber(value: number, lang: string): string {
  return numberFormat(intlLocale(lang)).format(value);
}

/** A date and time in the language's short style, in Asia/Jerusalem. */
export function formatShortDateTime(iso: string, lang: string): string {
  return cinemaFormat(lang, { dateStyle: 'short', timeStyle: 'short', hourCycle: 'h23' }).format(
    new Date(iso),
  );
}

/** hour:minute (24 h) in Asia/Jerusalem. */
export function formatTime(iso: string, lang: string): string {
  const date = new Date(iso);
  return cinemaFormat(lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
}

/** Calendar day (YYYY-MM-DD) in Asia/Jerusalem of an instant. */
export function cinemaDate(instant: Date | string): string {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  const fields = dateFormat('en-CA', {
    timeZone: CINEMA_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(date);
  const get = (type: string) => fields.find((f) => f.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Today's calendar day in Asia/Jerusalem. */
export function todayInCinema(now: Date = new Date()): string {
  return cinemaDate(now);
}

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDate(value: string): boolean {
  const m = YMD.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

/** Calendar arithmetic on YYYY-MM-DD, independent of any time zone. */
export function addDays(ymd: string, days: number): string {
  const m = YMD.exec(ymd);
  if (!m) throw new Error(`Not a calendar date: ${ymd}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days));
  return d.toISOString().slice(0, 10);
}

/** A calendar day as a noon-UTC instant, safe to format in any zone near UTC. */
function calendarNoon(ymd: string): Date {
  return new Date(`${ymd}T12:00:00Z`);
}

/** Short weekday of a calendar day ("Tue", "יום ג׳"). */
export function formatWeekday(ymd: string, lang: string): string {
  return dateFormat(intlLocale(lang), { weekday: 'short', timeZone: 'UTC' }).format(
    calendarNoon(ymd),
  );
}

/** Day/month of a calendar day ("14/7"). */
export function formatDayMonth(ymd: string, lang: string): string {
  return dateFormat(intlLocale(lang), {
    day: 'numeric',
    month: 'numeric',
    timeZone: 'UTC',
  }).format(calendarNoon(ymd));
}

/** A calendar day in a table's few characters ("14 Jul 2026"). */
export function formatShortDate(ymd: string, lang: string): string {
  return dateFormat(intlLocale(lang), {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(calendarNoon(ymd));
}

/** Full date of a calendar day ("Tuesday, 14 July 2026"). */
export function formatLongDate(ymd: string, lang: string): string {
  return dateFormat(intlLocale(lang), {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(calendarNoon(ymd));
}
