import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// One stylesheet serves right-to-left and left-to-right pages only if it never says "left" or
// "right" (or top/bottom, for consistency): margin-inline-start, inset-block-end and friends.
const src = join(dirname(fileURLToPath(import.meta.url)), '..');

function cssFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return cssFiles(path);
    return name.endsWith('.css') ? [path] : [];
  });
}

const PHYSICAL = [
  /\b(margin|padding|border|scroll-margin|scroll-padding)-(left|right|top|bottom)\b/,
  /\bborder-(top|bottom)-(left|right)-radius\b/,
  /(^|[\s;{])(left|right|top|bottom)\s*:/,
  /\b(text-align|float|clear)\s*:\s*(left|right)\b/,
  /(^|[\s;{])(width|height|min-width|min-height|max-width|max-height)\s*:/,
];

describe('stylesheets', () => {
  const files = cssFiles(src);

  it('exist', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files.map((f) => [relative(src, f), f]))('%s uses logical properties only', (_, file) => {
    const offending = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .split('\n')
      .map((line, i) => ({ line: line.trim(), number: i + 1 }))
      // Media queries measure the viewport, which has no direction.
      .filter(({ line }) => !line.startsWith('@media'))
      .filter(({ line }) => PHYSICAL.some((re) => re.test(line)));
    expect(offending).toEqual([]);
  });
});
