// scripts/bench_page.mjs — the page's budgets, measured: transfer size (gzip -9 of what the page
// loads before its first frame), time to first frame in headless Chromium on localhost, and the
// cost of a frame on the busiest panel (Compare over the whole catalog) against a frame of the
// Fit panel measured in the same run.
//   node scripts/bench_page.mjs [SITE_DIR]   (default build/wasm/site)
// Frame times are what the page spends in its own frames (events, panels, ImGui, GL submit;
// emscripten_get_now around each), read through gpuplan_frame_ms_total. Headless Chromium draws
// with SwiftShader (software GL), so they include the GL calls' CPU side but not a GPU.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './static_server.mjs';

const site = resolve(process.argv[2] ?? 'build/wasm/site');
const budgetKb = 400;
// What the page fetches before its first frame; checked below against the requests a cold
// load makes before its first frame.
const startup = ['index.html', 'index.js', 'index.wasm'];

console.log('gpuplan page: transfer size (gzip -9, KB = 1000 bytes)');
let total = 0;
for (const f of readdirSync(site).sort()) {
  const raw = readFileSync(join(site, f));
  const gz = gzipSync(raw, { level: 9 }).length;
  const loaded = startup.includes(f);
  if (loaded) total += gz;
  console.log(`  ${f.padEnd(18)} ${(statSync(join(site, f)).size / 1000).toFixed(1).padStart(8)} KB raw ` +
              `${(gz / 1000).toFixed(1).padStart(8)} KB gzip  ${loaded ? 'at start' : f === 'index.deferred.wasm' ? 'after the first frame (other panels, typing, imports, exports)' : f.startsWith('preview-') ? 'click-to-load embeds only (facade=)' : (f.startsWith('catalog') ? 'on demand (the Catalog panel, tooltips of sources and derivations)' : f.startsWith('probe-st') ? 'on demand (This machine, one thread)' : f === 'sw.js' ? 'after load (the offline service worker)' : 'on demand (This machine, threaded)')}`);
}
console.log(`  start-up total ${(total / 1000).toFixed(1)} KB gzip of a ${budgetKb} KB budget: ` +
            `${total <= budgetKb * 1000 ? 'within' : 'OVER'} (${(total / (budgetKb * 1000)).toFixed(2)} of it)`);

const { server, url } = await startServer(site, 0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--enable-unsafe-swiftshader'],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function open(hash, context) {
  const page = await context.newPage();
  await page.goto(url + '#' + hash);
  await page.waitForFunction(() => window.Module?.calledRun && Module._gpuplan_frame_count() >= 3, null, { timeout: 60000 });
  return page;
}

// Time to first frame: a fresh browser context each run (no cache), navigation start to the
// first frame drawn (performance.now() in the page).
const first = [], domLoaded = [];
for (let i = 0; i < 7; ++i) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await open('v=1', context);
  first.push(await page.evaluate(() => Module.gpuplanFirstFrameMs));
  // The files requested before the first frame (resource timing; the document itself is not
  // among the resources): only the start-up files.
  const early = await page.evaluate(() => performance.getEntriesByType('resource')
    .filter((e) => e.startTime < Module.gpuplanFirstFrameMs).map((e) => new URL(e.name).pathname.slice(1)));
  for (const f of early)
    if (!startup.includes(f)) throw new Error(`${f} was requested before the first frame: the start-up total is wrong`);
  domLoaded.push(await page.evaluate(() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd));
  await context.close();
}
console.log('\ntime to first frame, headless Chromium on localhost, 7 cold loads:');
console.log(`  median ${median(first).toFixed(0)} ms (min ${Math.min(...first).toFixed(0)}, max ${Math.max(...first).toFixed(0)}); ` +
            `DOMContentLoaded median ${median(domLoaded).toFixed(0)} ms`);

// Frame cost: mean over 240 frames once the panel has settled, Compare against Fit.
async function frameMs(hash) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await open(hash, context);
  const sample = () => page.evaluate(() => [Module._gpuplan_frame_ms_total(), Module._gpuplan_frame_count()]);
  // The page stops drawing when idle; the frame cost is measured on frames drawn back to back.
  await page.evaluate(() => Module._gpuplan_keep_drawing(1));
  await page.waitForFunction(() => Module._gpuplan_frame_count() >= 30);
  const [t0, f0] = await sample();
  await page.waitForFunction((f) => Module._gpuplan_frame_count() >= f + 240, f0, { timeout: 120000 });
  const [t1, f1] = await sample();
  const ui = JSON.parse(await page.evaluate(() => Module.UTF8ToString(Module._gpuplan_ui_state())));
  await context.close();
  return { ms: (t1 - t0) / (f1 - f0), ui };
}
const fit = await frameMs('v=1&model=llama-3.1-70b&weights=q4_k_m&gpu=rtx-4090&count=2&tab=fit');
const compare = await frameMs('v=1&model=llama-3.1-70b&weights=q4_k_m&gpu=rtx-4090&count=2&tab=compare');
console.log('\nframe cost (mean of 240 frames, the page\'s own time per frame):');
console.log(`  Fit panel (reference)        ${fit.ms.toFixed(2)} ms`);
console.log(`  Compare, whole catalog       ${compare.ms.toFixed(2)} ms   x${(compare.ms / fit.ms).toFixed(2)} of Fit; ` +
            `${(compare.ms / 16.7 * 100).toFixed(0)}% of a 60 Hz frame`);
console.log(`  the ranking itself (once, after a change, then cached): ${compare.ui.compare_ms.toFixed(2)} ms`);

// Ranking after an edit: 9 edits of the batch on the Compare panel (through the link, as a
// user's edit reaches the Session); the ranking runs in a task of its own between frames, so
// the longest frame around the edits is reported beside it.
{
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await open('v=1&model=deepseek-r1&weights=fp8&context=32768&tab=compare', context);
  await page.waitForFunction(() => Module._gpuplan_frame_count() >= 5);
  const ranked = [], longest = [];
  for (let i = 0; i < 9; ++i) {
    await page.evaluate(() => Module._gpuplan_frame_ms_max());
    const before = await page.evaluate(() => Module._gpuplan_frame_count());
    await page.evaluate((b) => { location.hash = `v=1&model=deepseek-r1&weights=fp8&context=32768&batch=${b}&tab=compare`; }, 2 + i);
    await page.waitForFunction((f) => Module._gpuplan_frame_count() >= f + 4, before, { timeout: 30000 });
    await page.waitForTimeout(150);
    longest.push(await page.evaluate(() => Module._gpuplan_frame_ms_max()));
    ranked.push(JSON.parse(await page.evaluate(() => Module.UTF8ToString(Module._gpuplan_ui_state()))).compare_ms);
  }
  await context.close();
  console.log(`  ranking after an edit (DeepSeek-R1 FP8, 32k; 9 edits): median ${median(ranked).toFixed(2)} ms, ` +
              `between frames; longest frame around the edits: median ${median(longest).toFixed(2)} ms, ` +
              `max ${Math.max(...longest).toFixed(2)} ms`);
}

// Idle: the page's main-thread busy share over 5 s once it has settled (Chromium's TaskDuration
// over the wall clock), against the same page drawing every animation frame as it did before it
// learned to stop (gpuplan_keep_drawing), measured in the same run.
async function idleCpu(keepDrawing) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await open('v=1&model=llama-3.1-70b&weights=q4_k_m&gpu=rtx-4090&tp=2&tab=fit', context);
  if (keepDrawing) await page.evaluate(() => Module._gpuplan_keep_drawing(1));
  await page.waitForTimeout(2500);  // past the grace period after the last input
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const a = await metrics();
  await page.waitForTimeout(5000);
  const b = await metrics();
  await context.close();
  return (b.TaskDuration - a.TaskDuration) / (b.Timestamp - a.Timestamp);
}
const idle = await idleCpu(false), drawing = await idleCpu(true);
console.log('\nidle CPU (the page\'s main thread busy, share of 5 s of wall time once settled):');
console.log(`  left alone                   ${(idle * 100).toFixed(2)} %`);
console.log(`  drawing every frame (before) ${(drawing * 100).toFixed(2)} %   x${(drawing / Math.max(idle, 1e-6)).toFixed(0)} of idle`);
await browser.close();
server.close();
