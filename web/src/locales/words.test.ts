import { describe, expect, it } from 'vitest';
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
