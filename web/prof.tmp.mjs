import { chromium } from '@playwright/test';
import fs from 'fs';
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
const self = new Map(); const byId = new Map(profile.nodes.map(n => [n.id, n]));
const dt = profile.timeDeltas; const counts = new Map();
profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) || 0) + (dt[i] || 0)));
for (const [id, us] of counts) { const n = byId.get(id); const f = n.callFrame; const k = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`; self.set(k, (self.get(k) || 0) + us); }
const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 35);
for (const [k, us] of top) console.log((us / 1000).toFixed(0).padStart(6), 'ms', k);
// by url
const byUrl = new Map(); for (const [id, us] of counts) { const f = byId.get(id).callFrame; const u = f.url.split('/').pop() || f.functionName; byUrl.set(u, (byUrl.get(u) || 0) + us); }
console.log('--- by url'); for (const [k, us] of [...byUrl.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log((us / 1000).toFixed(0).padStart(6), 'ms', k);
await b.close();
