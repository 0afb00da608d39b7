import { describe, expect, it } from 'vitest';
import en from './en.json';
import he from './he.json';

/** Every string of a catalogue, with its key. */
function strings(node: unknown, key = ''): [string, string][] {
  if (typeof node === 'string') return [[key, node]];
  if (Array.isArray(node)) return node.flatMap((n, i) => strings(n, `${key}[${i}]`));
  if (node && typeof node === 'object') {
    return Object.entries(node).flatMap(([k, v]) => strings(v, key ? `${key}.${k}` : k));
  }
  return [];
}

describe('the Hebrew words', () => {
  it('call a seat מושב throughout (כיסא only in "כיסא גלגלים")', () => {
    const chairs = strings(he).filter(([, text]) =>
      /כיסא/.test(text.replace(/כיסא(?:ות)? גלגלים/g, '')),
    );
    expect(chairs).toEqual([]);
  });
});

describe('a failed payment', () => {
  const codes = [
    'paymentError',
    'errorNoResponse',
    'errorResponse',
    'payU_3DS_error',
    'blikError',
    'payUerror',
  ] as const;

  it('says what happened, that no money was taken, and what to do', () => {
    for (const code of codes) {
      expect(en.errors[code], code).toMatch(/no money was taken/i);
      expect(en.errors[code], code).toMatch(/try again|another card|another way|check/i);
      expect(he.errors[code], code).toMatch(/לא נגבה כסף/);
    }
  });

  it("blames the card's issuer, not the buyer's internet, when the issuer does not answer", () => {
    expect(en.errors.errorNoResponse).toMatch(/issuer did not answer/);
    expect(en.errors.errorNoResponse).not.toMatch(/connection|internet/i);
    expect(he.errors.errorNoResponse).not.toMatch(/אינטרנט|חיבור/);
  });
});
