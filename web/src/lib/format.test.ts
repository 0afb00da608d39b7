import { describe, expect, it } from 'vitest';
import {
  addDays,
  cinemaDate,
  formatDateTime,
  formatDateTimeParts,
  formatDayMonth,
  formatLongDate,
  formatMoney,
  formatNumber,
  formatShortDateTime,
  formatTime,
  isCalendarDate,
  todayInCinema,
} from './format';

// Strip the bidi marks Intl puts around currency in right-to-left locales.
const plain = (s: string) => s.replace(/[\u200e\u200f\u061c]/g, '').replace(/\u00a0/g, ' ');

describe('formatMoney', () => {
  it('turns integer agorot into shekels with two decimals', () => {
    expect(formatMoney(4200, 'en')).toBe('₪42.00');
    expect(formatMoney(4250, 'en')).toBe('₪42.50');
    expect(formatMoney(5, 'en')).toBe('₪0.05');
    expect(formatMoney(123456, 'en')).toBe('₪1,234.56');
  });

  it('writes the shekel sign the Hebrew way in Hebrew', () => {
    const text = plain(formatMoney(4200, 'he'));
    expect(text).toContain('42.00');
    expect(text).toContain('₪');
  });
});

describe('times in Asia/Jerusalem', () => {
  it('shows summer times at UTC+3 (daylight saving)', () => {
    expect(formatTime('2026-07-14T17:30:00Z', 'en')).toBe('20:30');
    expect(formatDateTime('2026-07-14T17:30:00Z', 'en')).toBe('Tuesday, 14/07/2026, 20:30');
  });

  it('shows winter times at UTC+2', () => {
    expect(formatTime('2026-01-14T17:30:00Z', 'en')).toBe('19:30');
    expect(formatDateTime('2026-01-14T17:30:00Z', 'en')).toBe('Wednesday, 14/01/2026, 19:30');
  });

  it('crosses the spring change on the right side (27 March 2026, 02:00 local)', () => {
    // 23:59 UTC on the 26th is 01:59 local (UTC+2); an hour later clocks have jumped to UTC+3.
    expect(formatTime('2026-03-26T23:59:00Z', 'en')).toBe('01:59');
    expect(formatTime('2026-03-27T00:59:00Z', 'en')).toBe('03:59');
  });

  it('gives the weekday, date and time apart, so none of them is broken across lines', () => {
    expect(formatDateTimeParts('2026-11-27T18:00:00Z', 'he')).toEqual({
      weekday: 'יום שישי',
      date: '27/11/2026',
      time: '20:00',
    });
  });

  it('names the weekday in Hebrew', () => {
    expect(formatDateTime('2026-07-14T17:30:00Z', 'he')).toBe('יום שלישי, 14/07/2026, 20:30');
  });

  it('puts late-evening UTC instants on the next Jerusalem day', () => {
    expect(cinemaDate('2026-07-14T21:30:00Z')).toBe('2026-07-15');
    expect(cinemaDate('2026-01-14T21:30:00Z')).toBe('2026-01-14');
    expect(todayInCinema(new Date('2026-07-14T22:10:00Z'))).toBe('2026-07-15');
  });
});

describe('calendar days', () => {
  it('adds days across months and years', () => {
    expect(addDays('2026-12-25', 13)).toBe('2027-01-07');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });

  it('recognises real dates only', () => {
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('today')).toBe(false);
  });

  it('formats a day without shifting it', () => {
    expect(formatDayMonth('2026-07-14', 'en')).toBe('14/07');
  });
});

describe('formatting in the other interface languages', () => {
  const at = '2026-07-14T17:30:00Z';

  it('writes money with the language’s own separators and the shekel sign', () => {
    expect(formatMoney(123456, 'ru').replace(/\s/g, ' ')).toBe('1 234,56 ₪');
    expect(formatMoney(123456, 'pl').replace(/\s/g, ' ')).toBe('1234,56 ILS');
    expect(formatMoney(4200, 'ar')).toContain('42.00');
    expect(formatNumber(1234567, 'hu').replace(/\s/g, ' ')).toBe('1 234 567');
  });

  it('dates in the language’s own order, in Jerusalem time', () => {
    expect(formatDateTimeParts(at, 'ru')).toEqual({
      weekday: 'вторник',
      date: '14.07.2026',
      time: '20:30',
    });
    expect(formatDateTimeParts(at, 'hu').date).toBe('2026. 07. 14.');
    expect(formatDateTimeParts(at, 'ar').time).toBe('20:30');
    expect(formatLongDate('2026-07-14', 'cs')).toBe('úterý 14. července 2026');
    expect(formatShortDateTime(at, 'ru')).toBe('14.07.2026, 20:30');
  });
});
