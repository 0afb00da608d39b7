import { chromium } from '@playwright/test';
const url = process.argv[2];
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const c = await b.newContext({ viewport: { width: 412, height: 823 } });
const p = await c.newPage();
const s = await c.newCDPSession(p);
await s.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await s.send('Profiler.enable');
await s.send('Profiler.setSamplingInterval', { interval: 200 });
await s.send('Profiler.start');
await p.goto(url);
await p.locator('.site-footer').waitFor({ timeout: 30000 });
await p.waitForTimeout(3000);
const { profile } = await s.send('Profiler.stop');
const byId = new Map(profile.nodes.map(n => [n.id, n]));
const parent = new Map(); for (const n of profile.nodes) for (const ch of n.children ?? []) parent.set(ch, n.id);
const dt = profile.timeDeltas; const counts = new Map();
profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) || 0) + (dt[i] || 0)));
const name = (id) => { const f = byId.get(id).callFrame; return `${f.functionName || '(anon)'}@${f.url.split('/').pop()}:${f.lineNumber}:${f.columnNumber}`; };
// inclusive time per function name (count once per stack)
const incl = new Map();
for (const [id, us] of counts) { const seen = new Set(); let cur = id; while (cur !== undefined) { const k = name(cur); if (!seen.has(k)) { incl.set(k, (incl.get(k) || 0) + us); seen.add(k); } cur = parent.get(cur); } }
for (const [k, us] of [...incl.entries()].sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log((us / 1000).toFixed(0).padStart(6), k);
await b.close();
