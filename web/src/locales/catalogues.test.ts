import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODES } from '../lib/i18n/languages';
import {
  LOCALES_DIR as dir,
  flatten,
  loadCatalogue as load,
  placeholders,
  type Tree,
} from '../test/catalogueTree';

/** Every error code the server can answer, as its OpenAPI document lists them. */
function serverErrorCodes(): string[] {
  const api = JSON.parse(readFileSync(join(dir, '../lib/api/openapi.json'), 'utf8')) as {
    components: { schemas: { ErrorCode: { enum: string[] } } };
  };
  return api.components.schemas.ErrorCode.enum;
}

describe('locale catalogues', () => {
  it.each(['he', 'en'])('%s has words for every error code the server answers', (code) => {
    const errors = load(code).errors as Tree;
    const codes = serverErrorCodes();
    expect(codes.length).toBeGreaterThan(50);
    const missing = codes.filter((c) => typeof errors[c] !== 'string');
    expect(missing, `errors.* in ${code}.json`).toEqual([]);
  });

  it('exist for exactly the interface languages', () => {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''))
      .sort();
    expect(files).toEqual([...LANGUAGE_CODES].sort());
  });

  it.each([...LANGUAGE_CODES])('%s parses and holds only strings', (code) => {
    const flat = flatten(load(code));
    expect(flat.size).toBeGreaterThan(0);
    for (const [key, value] of flat) expect(value.trim(), key).not.toBe('');
  });

  it('he and en have the same keys', () => {
    const he = [...flatten(load('he')).keys()].sort();
    const en = [...flatten(load('en')).keys()].sort();
    expect(he).toEqual(en);
  });

  it('he and en use the same placeholders in every message', () => {
    const he = flatten(load('he'));
    const en = flatten(load('en'));
    for (const [key, text] of en) {
      // Hebrew plural forms may spell the number out ("הקרנה אחת").
      if (key.endsWith('_one')) continue;
      expect(placeholders(he.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('names the service charge the same way on every step', () => {
    for (const code of ['he', 'en']) {
      const flat = flatten(load(code));
      // The same words as a label and inside a sentence ("incl. ₪5.00 service charge").
      const name = flat.get('checkout.summary.serviceCharge')?.toLowerCase();
      expect(flat.get('order.prices.serviceCharge')?.toLowerCase(), code).toBe(name);
    }
    const en = [...flatten(load('en')).values()].join('\n');
    expect(en).not.toMatch(/handling fee|service fee/i);
    expect(flatten(load('he')).get('checkout.summary.serviceCharge')).toBe('דמי טיפול');
  });

  it('keeps the texts the product promises', () => {
    const en = flatten(load('en'));
    const he = flatten(load('he'));
    expect(en.get('notFound.title')).toBe('This page could not be found.');
    expect(en.get('error.title')).toBe('Error Occurred');
    expect(he.get('notFound.title')).toBe('הדף לא נמצא.');
    expect(he.get('validation.voucherNoBalance')).toBe('לא נותרה יתרה למימוש הטבה');
    for (const code of ['lock_seat_error', 'noEvent', 'ORDER_ALREADY_PAID', 'payU_3DS_error']) {
      expect(en.has(`errors.${code}`), code).toBe(true);
      expect(he.has(`errors.${code}`), code).toBe(true);
    }
  });
});
