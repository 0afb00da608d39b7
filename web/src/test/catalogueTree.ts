// Reading the locale catalogues as flat key → text maps, for the catalogue checks (tests only).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LOCALES_DIR = join(dirname(fileURLToPath(import.meta.url)), '../locales');

export type Tree = { [key: string]: string | Tree };

export function loadCatalogue(code: string): Tree {
  return JSON.parse(readFileSync(join(LOCALES_DIR, `${code}.json`), 'utf8')) as Tree;
}

/** `{a: {b: "x"}}` → `a.b` → "x". */
export function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** The `{{name}}` placeholders of a message, sorted. */
export const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
