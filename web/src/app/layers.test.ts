import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// House style (bulletproof-react): src/app -> src/features/<name> -> shared components and lib.
// Features never import each other, and the shared layers never import a feature or the app.
const src = join(dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative imports of a file, resolved to paths under src (e.g. "features/order/api"). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => m[1]);
  return specs.map((spec) =>
    relative(src, resolve(dirname(file), spec))
      .split(sep)
      .join('/'),
  );
}

/** "features/order", "components/ui", "lib", "app", ... */
function layerOf(path: string): string {
  const [top, second] = path.split('/');
  return top === 'features' || top === 'components' ? `${top}/${second}` : top;
}

const files = sourceFiles(src).filter((f) => !/\.test\.tsx?$/.test(f));

describe('layers', () => {
  it('features import no other feature', () => {
    const crossings = files.flatMap((file) => {
      const from = layerOf(relative(src, file).split(sep).join('/'));
      if (!from.startsWith('features/')) return [];
      return importsOf(file)
        .filter((to) => to.startsWith('features/') && layerOf(to) !== from)
        .map((to) => `${relative(src, file)} -> ${to}`);
    });
    expect(crossings).toEqual([]);
  });

  it('shared components and lib import no feature and not the app', () => {
    const crossings = files.flatMap((file) => {
      const from = relative(src, file).split(sep).join('/');
      if (!from.startsWith('components/') && !from.startsWith('lib/')) return [];
      return importsOf(file)
        .filter((to) => to.startsWith('features/') || to.startsWith('app/'))
        .map((to) => `${from} -> ${to}`);
    });
    expect(crossings).toEqual([]);
  });

  it('lib imports no shared component', () => {
    const crossings = files.flatMap((file) => {
      const from = relative(src, file).split(sep).join('/');
      if (!from.startsWith('lib/')) return [];
      return importsOf(file)
        .filter((to) => to.startsWith('components/'))
        .map((to) => `${from} -> ${to}`);
    });
    expect(crossings).toEqual([]);
  });
});
