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
const pathOf = (file: string) => relative(src, file).split(sep).join('/');

/** Every import of a file: what it names, from where, and whether only types are imported. */
function importClauses(file: string): { names: string; from: string; typeOnly: boolean }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/import\s+(type\s+)?([^'";]*?)\s+from\s+'([^']+)'/g)].map((m) => {
    const from = m[3].startsWith('.')
      ? relative(src, resolve(dirname(file), m[3]))
          .split(sep)
          .join('/')
      : m[3];
    return { names: m[2], from, typeOnly: Boolean(m[1]) };
  });
}

/** The names a clause imports as values: `{ a, type B, c as d }` gives a and c. */
function valueNames(names: string): string[] {
  const braces = /\{([^}]*)\}/.exec(names)?.[1] ?? '';
  const fromBraces = braces
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '' && !n.startsWith('type '))
    .map((n) => n.split(/\s+as\s+/)[0]);
  const outside = names
    .replace(/\{[^}]*\}/, '')
    .replace(/,/g, ' ')
    .trim();
  return outside === '' ? fromBraces : [outside, ...fromBraces];
}

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

  it('shared components make no API calls (those belong to a feature)', () => {
    // The query client alone is fine: the connection notice asks again for whatever is shown.
    const calling = new Set(['apiGet', 'apiSend', 'useQuery', 'useMutation', 'queryOptions']);
    const crossings = files.flatMap((file) => {
      const from = pathOf(file);
      if (!from.startsWith('components/')) return [];
      return importClauses(file)
        .filter((c) => !c.typeOnly)
        .flatMap((c) => {
          const names = valueNames(c.names);
          const callsApi =
            c.from === 'lib/api/customer' ||
            c.from === 'lib/api/payment' ||
            ((c.from === 'lib/api/client' || c.from === '@tanstack/react-query') &&
              names.some((n) => calling.has(n)));
          return callsApi ? [`${from} -> ${c.from} {${names.join(', ')}}`] : [];
        });
    });
    expect(crossings).toEqual([]);
  });

  it("a feature's model is pure: no React, and nothing from the feature's api, components or hooks", () => {
    const crossings = files.flatMap((file) => {
      const from = pathOf(file);
      const feature = /^features\/[^/]+\/model\//.exec(from)?.[0].replace(/model\/$/, '');
      if (!feature) return [];
      return importClauses(file)
        .filter(
          (c) =>
            /^(react|react-dom|@tanstack\/react-query|react-i18next)$/.test(c.from) ||
            ['api', 'components', 'hooks'].some((room) => c.from.startsWith(`${feature}${room}`)),
        )
        .map((c) => `${from} -> ${c.from}`);
    });
    expect(crossings).toEqual([]);
  });

  it("the order's query keys are written only in its api modules", () => {
    const writers = files
      .map(pathOf)
      .filter((f) => f.startsWith('features/order/') && !f.startsWith('features/order/api/'))
      .filter((f) => /queryKey:\s*\[/.test(readFileSync(join(src, f), 'utf8')));
    expect(writers).toEqual([]);
  });

  it('the order calls the server only from its api modules (queries there, mutations there)', () => {
    const callers = files.flatMap((file) => {
      const from = pathOf(file);
      if (!from.startsWith('features/order/') || from.startsWith('features/order/api/')) return [];
      return importClauses(file)
        .filter((c) => !c.typeOnly)
        .filter((c) =>
          valueNames(c.names).some((n) => ['useMutation', 'apiGet', 'apiSend'].includes(n)),
        )
        .map((c) => `${from} -> ${c.from}`);
    });
    expect(callers).toEqual([]);
  });
});
