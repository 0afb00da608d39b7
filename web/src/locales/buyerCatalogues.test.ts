// The eight buyer-only languages against English: every buyer key there (plural keys in the
// language's own CLDR categories), nothing empty, the same placeholders, and nothing left in
// English but brand names and codes. Staff namespaces stay he and en.
import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODES, STAFF_LANGUAGES, STAFF_NAMESPACES } from '../lib/i18n/languages';
import { flatten, loadCatalogue, placeholders, type Tree } from '../test/catalogueTree';
import { SAME_AS_ENGLISH } from './sameAsEnglish';

const BUYER_ONLY = LANGUAGE_CODES.filter((c) => !STAFF_LANGUAGES.includes(c));

/** Words that are the same in every language: brands, payment schemes, codes. */
const SAME_EVERYWHERE = new Set([
  'Kupa',
  'PayPal',
  'PayU',
  'BLIK',
  'Blik',
  'Visa',
  'Mastercard',
  'Google Pay',
  'Apple Pay',
  'IMAX',
  '3D',
  '4DX',
  'VIP',
  'QR',
  'PDF',
  'XLSX',
  'CSV',
  'SMS',
  'OK',
]);

const PLURAL = /^(.*)_(zero|one|two|few|many|other)$/;

/** The keys `lang` must have, each with the English key its text answers to. */
export function expectedKeys(en: Map<string, string>, lang: string): Map<string, string> {
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories as string[];
  const out = new Map<string, string>();
  for (const key of en.keys()) {
    if (STAFF_NAMESPACES.includes(key.split('.')[0])) continue;
    const m = PLURAL.exec(key);
    if (m && en.has(`${m[1]}_other`)) {
      const base = m[1];
      // i18next uses _zero for a count of 0 in any language, when the catalogue has it.
      const wanted = en.has(`${base}_zero`) ? ['zero', ...categories] : categories;
      for (const c of wanted) {
        const source = en.has(`${base}_${c}`) ? `${base}_${c}` : `${base}_other`;
        out.set(`${base}_${c}`, source);
      }
    } else out.set(key, key);
  }
  return out;
}

function mayStayEnglish(text: string, key: string, allowed: Record<string, string>): boolean {
  const letters = text.replace(/\{\{\s*\w+\s*\}\}/g, '').replace(/[^\p{L}]/gu, '');
  return letters === '' || SAME_EVERYWHERE.has(text.trim()) || key in allowed;
}

/** What is wrong with a buyer catalogue, one line each (empty when it is complete). */
export function catalogueProblems(
  lang: string,
  en: Map<string, string>,
  target: Map<string, string>,
  allowed: Record<string, string> = {},
): string[] {
  const problems: string[] = [];
  const expected = expectedKeys(en, lang);
  for (const [key, source] of expected) {
    const text = target.get(key);
    const english = en.get(source) ?? '';
    if (text === undefined) {
      problems.push(`missing ${key}`);
      continue;
    }
    if (text.trim() === '') problems.push(`empty ${key}`);
    // A plural form for one (zero, two) may spell the number out instead of {{count}}.
    const spelled = /_(zero|one|two)$/.test(key);
    const ours = placeholders(text).filter((p) => !(spelled && p === 'count'));
    const theirs = placeholders(english).filter((p) => !(spelled && p === 'count'));
    if (ours.join() !== theirs.join()) {
      problems.push(`placeholders ${key}: ${ours.join(',')} instead of ${theirs.join(',')}`);
    }
    if (text === english && !mayStayEnglish(text, key, allowed)) {
      problems.push(`still English ${key}: ${text}`);
    }
  }
  for (const key of target.keys()) if (!expected.has(key)) problems.push(`not in en ${key}`);
  return problems;
}

describe('the buyer catalogue check', () => {
  const en = new Map([
    ['whatsOn.title', "What's on"],
    ['order.seats.count_one', 'One seat'],
    ['order.seats.count_other', '{{count}} seats'],
    ['order.hello', 'Hello {{name}}'],
    ['order.pay', 'PayPal'],
    ['staff.title', 'Live'],
  ]);
  const good = new Map([
    ['whatsOn.title', 'Афиша'],
    ['order.seats.count_one', '{{count}} место'],
    ['order.seats.count_few', '{{count}} места'],
    ['order.seats.count_many', '{{count}} мест'],
    ['order.seats.count_other', '{{count}} места'],
    ['order.hello', 'Привет, {{name}}'],
    ['order.pay', 'PayPal'],
  ]);

  it('passes a complete catalogue', () => {
    expect(catalogueProblems('ru', en, good)).toEqual([]);
  });

  it('asks for the language’s own plural forms', () => {
    const arabic = [...expectedKeys(en, 'ar').keys()].filter((k) => k.includes('count'));
    expect(arabic.sort()).toEqual(
      ['few', 'many', 'one', 'other', 'two', 'zero'].map((c) => `order.seats.count_${c}`),
    );
    const noMany = new Map(good);
    noMany.delete('order.seats.count_many');
    expect(catalogueProblems('ru', en, noMany)).toEqual(['missing order.seats.count_many']);
  });

  it('refuses empty texts, other placeholders, English left over and unknown keys', () => {
    const bad = new Map(good);
    bad.set('whatsOn.title', ' ');
    bad.set('order.hello', 'Привет, {{nom}}');
    bad.set('order.seats.count_few', '{{count}} seats');
    bad.set('order.extra', 'x');
    expect(catalogueProblems('ru', en, bad).sort()).toEqual([
      'empty whatsOn.title',
      'not in en order.extra',
      'placeholders order.hello: nom instead of name',
      'still English order.seats.count_few: {{count}} seats',
    ]);
  });
});

describe.each(BUYER_ONLY)('the %s catalogue', (lang) => {
  it('has every buyer key of en, translated, with the same placeholders', () => {
    const en = flatten(loadCatalogue('en'));
    const target = flatten(loadCatalogue(lang) as Tree);
    const allowed = SAME_AS_ENGLISH[lang] ?? {};
    expect(catalogueProblems(lang, en, target, allowed)).toEqual([]);
  });
});
