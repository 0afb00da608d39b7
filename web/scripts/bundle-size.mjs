// Reports the JavaScript a first visit to /order/{id} loads: the entry chunk and its static
// imports, plus the order page's lazy chunk and its static imports, each gzipped (level 9),
// as a browser would receive them from a server that compresses. Reads Vite's manifest, so it
// counts exactly what the route pulls in, not the whole dist folder. A benchmark, not a test:
// it prints figures and writes bench/results/<date>-web-bundle.json; it fails no build.
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(web, 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const orderKey = Object.keys(manifest).find((k) =>
  /features\/order\/(components\/)?OrderPage\.tsx$/.test(k),
);
if (!entryKey || !orderKey) {
  console.error(`manifest lacks ${entryKey ? 'the order page chunk' : 'an entry'}`);
  process.exit(1);
}

function staticClosure(key, seen) {
  if (seen.has(key)) return;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) staticClosure(imported, seen);
}
const keys = new Set();
staticClosure(entryKey, keys);
staticClosure(orderKey, keys);

const files = [...keys]
  .map((k) => manifest[k].file)
  .filter((f) => f.endsWith('.js'))
  .map((file) => {
    const bytes = readFileSync(join(dist, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);
const total = files.reduce((t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip }), {
  raw: 0,
  gzip: 0,
});
const kb = (n) => (n / 1024).toFixed(1);

console.log('JavaScript loaded by /order/{id} (gzip level 9):');
for (const f of files)
  console.log(`  ${kb(f.gzip).padStart(7)} KB  (${kb(f.raw)} KB raw)  ${f.file}`);
console.log(
  `  ${kb(total.gzip).padStart(7)} KB  total gzipped (${kb(total.raw)} KB raw); aim: under 250 KB`,
);

const day = new Date().toISOString().slice(0, 10);
const out = join(web, '..', 'bench', 'results');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, `${day}-web-bundle.json`),
  JSON.stringify(
    {
      route: '/order/{id}',
      gzipLevel: 9,
      totalGzipBytes: total.gzip,
      totalRawBytes: total.raw,
      files,
    },
    null,
    2,
  ) + '\n',
);
