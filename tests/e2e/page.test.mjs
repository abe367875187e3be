// The page in headless Chromium, as a user meets it: load a link, click and type into the
// ImGui panel, reload, follow a broken link — and every time read the numbers back through
// the page's exported functions and compare them with the CLI's JSON for the same scenario.
//   GPUPLAN_SITE     the built page (build/wasm/site)
//   GPUPLAN_CLI      the native gpuplan binary
//   GPUPLAN_ARTIFACTS where screenshots go
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer } from '../../scripts/static_server.mjs';
import { imageStats } from './png.mjs';
import { launchBrowser, readBack, waitFrames } from './harness.mjs';

const site = process.env.GPUPLAN_SITE;
const cli = process.env.GPUPLAN_CLI;
const artifacts = process.env.GPUPLAN_ARTIFACTS ?? mkdtempSync(join(tmpdir(), 'gpuplan-e2e-'));
assert.ok(site && cli, 'set GPUPLAN_SITE and GPUPLAN_CLI');
mkdirSync(artifacts, { recursive: true });

let server, url, browser;

before(async () => {
  ({ server, url } = await startServer(site, 0));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function openPage(hash) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
  await page.goto(url + (hash ? '#' + hash : ''));
  await waitFrames(page, 3);
  return { page, errors };
}

// Click into the text part of an ImGui input, select all, type, press Enter. ImGui 1.86 has
// no input queue: hold the click and keys ~80 ms, and let frames pass between steps.
// Clicks the centre of a widget the page tracks (gpuplan_widget_rects, read fresh), then lets
// the page draw a few frames.
async function clickWidget(page, key, frames = 3) {
  const rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects[key], `no widget '${key}' among ${Object.keys(rects).join(' ')}`);
  await page.mouse.click((rects[key].x0 + rects[key].x1) / 2, (rects[key].y0 + rects[key].y1) / 2, { delay: 80 });
  await waitFrames(page, frames);
}

// This machine > Measure (quick); the measurement runs a few frames later and blocks the page
// (or runs in the threaded module) until its result is loaded. Returns the probe's JSON.
async function measureQuick(page) {
  await clickWidget(page, 'tab-machine');
  await clickWidget(page, 'machine-quick', 0);
  for (let i = 0; i < 60 && JSON.parse(await readBack(page, 'gpuplan_ui_state')).cpu_probe === ''; ++i)
    await waitFrames(page, 2);
  return result(page, 'machine');
}

async function typeInto(page, rect, text) {
  await page.mouse.click(rect.x0 + 25, (rect.y0 + rect.y1) / 2, { delay: 80 });
  await waitFrames(page, 2);
  await page.keyboard.press('Control+a', { delay: 80 });
  await waitFrames(page, 2);
  await page.keyboard.type(text, { delay: 80 });
  await page.keyboard.press('Enter', { delay: 80 });
  await waitFrames(page, 3);
}

const execFileP = promisify(execFile);
const report = async (page) => JSON.parse(await readBack(page, 'gpuplan_report_json'));

function cliReport(state) {
  const r = spawnSync(cli, ['fit', '--state', state, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('a link sets the scenario; the page computes exactly what the CLI prints', async () => {
  const hash = 'v=1&model=llama-3.1-70b&weights=q4_k_m&gpu=rtx-4090&count=2&context=8192&batch=1';
  const { page, errors } = await openPage(hash);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).catalog_error, '');
  const fromPage = await report(page);
  assert.equal(fromPage.scenario.model, 'llama-3.1-70b');
  assert.equal(fromPage.scenario.tp, 2);
  assert.deepEqual(fromPage, cliReport(hash));
  // The page rewrites the hash into the complete, versioned form (with the catalog's version).
  assert.equal(await page.evaluate(() => location.hash), '#' + fromPage.state);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the page requests nothing but its own files: no CDN, font service or analytics, in English or Japanese', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const foreign = [], own = new Set();
  page.on('request', (r) => {
    const u = r.url();
    if (u.startsWith(url)) own.add(new URL(u).pathname);
    else if (!/^(data|blob):/.test(u)) foreign.push(u);
  });
  await page.goto(url + '#v=1&model=llama-3.1-8b&gpu=rtx-4090&lang=ja');
  await waitFrames(page, 10);
  for (let i = 0; i < 100 && JSON.parse(await readBack(page, 'gpuplan_ui_state')).lang !== 'ja'; ++i) await waitFrames(page, 2);
  for (const tab of ['tab-cost', 'tab-speed', 'tab-compare', 'tab-train', 'tab-roofline', 'tab-machine', 'tab-catalog'])
    await clickWidget(page, tab, 5);
  assert.deepEqual(foreign, [], 'requests to other origins');
  for (const file of ['/index.js', '/index.wasm', '/i18n-ja.json', '/font-ja.ttf'])
    assert.ok(own.has(file), `${file} among ${[...own].join(' ')}`);
  await page.close();
});

test('clicking and typing into the panel changes the scenario, the URL, and survives reload', async () => {
  const { page, errors } = await openPage('v=1&model=llama-3.1-8b&gpu=h100-sxm&count=1');
  const rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects.tp, 'the GPU-count input reports its rectangle');
  await typeInto(page, rects.tp, '4');
  const after = await report(page);
  assert.equal(after.scenario.tp, 4);
  assert.equal(after.scenario.model, 'llama-3.1-8b');
  // The address names the model, the GPU, what differs from the defaults and the catalog's version.
  assert.equal(await page.evaluate(() => location.hash), '#v=1&model=llama-3.1-8b&gpu=h100-sxm&tp=4&cat=' + after.catalog_version);
  assert.deepEqual(after, cliReport(after.state));

  // Typing an out-of-range value is refused with a message naming the field, and changes nothing.
  await typeInto(page, rects.context, '0');
  assert.equal((await report(page)).scenario.context, 8192);
  const fieldErrors = JSON.parse(await readBack(page, 'gpuplan_field_errors'));
  assert.match(fieldErrors.context ?? '', /context: '0' must be a whole number from 1/);

  const shot = await page.screenshot({ path: join(artifacts, 'page-after-edit.png') });
  const stats = imageStats(shot);
  assert.ok(stats.colors > 50, `screenshot has only ${stats.colors} colours: blank?`);
  assert.ok(stats.dominantShare < 0.97, `one colour covers ${(stats.dominantShare * 100).toFixed(1)}%: blank?`);

  await page.reload();
  await waitFrames(page, 3);
  const reloaded = await report(page);
  assert.equal(reloaded.scenario.tp, 4);
  assert.deepEqual(reloaded, after);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a broken link keeps the valid fields and says which were dropped', async () => {
  const { page, errors } = await openPage('v=1&model=nope&gpu=h100-sxm&context=-5&batch=3&color=red');
  const notices = JSON.parse(await readBack(page, 'gpuplan_notices'));
  assert.equal(notices.length, 3);
  assert.match(notices[0], /model: unknown model 'nope'/);
  assert.match(notices[1], /context: '-5' must be a whole number/);
  assert.match(notices[2], /unknown field 'color'/);
  const r = await report(page);
  assert.equal(r.scenario.gpu, 'h100-sxm');
  assert.equal(r.scenario.batch, 3);
  assert.equal(r.scenario.model, 'llama-3.1-8b');
  const shot = await page.screenshot({ path: join(artifacts, 'page-broken-link.png') });
  assert.ok(imageStats(shot).colors > 50);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Catalog panel: search, select a row, see its sources, use it in Fit', async () => {
  const { page, errors } = await openPage('v=1&model=llama-3.1-70b&gpu=rtx-4090&count=2&weights=q4_k_m');
  const click = async (rect) => {
    await page.mouse.click((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2, { delay: 80 });
    await waitFrames(page, 3);
  };
  // The page's wasm carries the catalog without its sources; the Catalog panel fetches them.
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).sources, 'elsewhere');
  const before = await report(page);
  let rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  await click(rects['tab-catalog']);
  let ui = JSON.parse(await readBack(page, 'gpuplan_ui_state'));
  assert.equal(ui.tab, 'catalog');
  for (let i = 0; i < 50 && ui.sources !== 'loaded'; ++i) {
    await waitFrames(page, 2);
    ui = JSON.parse(await readBack(page, 'gpuplan_ui_state'));
  }
  assert.equal(ui.sources, 'loaded');
  assert.deepEqual(await report(page), before, 'the figures are the same with the sources loaded');
  assert.ok(ui.visible.length >= 60, `${ui.visible.length} accelerators listed`);

  rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  await typeInto(page, rects['catalog-search'], 'H200');
  ui = JSON.parse(await readBack(page, 'gpuplan_ui_state'));
  assert.equal(ui.search, 'H200');
  assert.deepEqual([...ui.visible].sort(), ['gh200', 'gh200-144gb', 'h200-nvl', 'h200-sxm']);  // GH200s match too

  rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  await click(rects['row:h200-sxm']);
  ui = JSON.parse(await readBack(page, 'gpuplan_ui_state'));
  assert.equal(ui.selected_gpu, 'h200-sxm');
  const shot = await page.screenshot({ path: join(artifacts, 'page-catalog.png') });
  assert.ok(imageStats(shot).colors > 50);

  rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  await click(rects['use-in-fit']);
  ui = JSON.parse(await readBack(page, 'gpuplan_ui_state'));
  assert.equal(ui.tab, 'fit');
  const r = await report(page);
  assert.equal(r.scenario.gpu, 'h200-sxm');
  assert.equal(r.scenario.model, 'llama-3.1-70b');
  assert.match(await page.evaluate(() => location.hash), /gpu=h200-sxm/);
  assert.deepEqual(r, cliReport(r.state));
  assert.deepEqual(errors, []);
  await page.close();
});

function cliJson(command, state) {
  const r = spawnSync(cli, [command, '--state', state, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}
const result = async (page, which) =>
  JSON.parse(await page.evaluate((w) => Module.UTF8ToString(Module.ccall('gpuplan_result_json', 'number', ['string'], [w])), which));

test('the Speed and Compare panels show what gpuplan speed and gpuplan compare print', async () => {
  const hash = 'v=1&model=llama-3.1-8b&weights=q4_k_m&engine=llama.cpp&gpu=rtx-4090&prompt=512&context=4096&batch=4';
  const { page, errors } = await openPage(hash);
  const click = async (rect) => {
    await page.mouse.click((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2, { delay: 80 });
    await waitFrames(page, 3);
  };
  let rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  await click(rects['tab-speed']);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).tab, 'speed');
  const state = await readBack(page, 'gpuplan_state_hash');
  const speed = await result(page, 'speed');
  assert.equal(speed.schema, 'gpuplan.speed/1');
  assert.deepEqual(speed, cliJson('speed', state));
  assert.ok(speed.tokens_per_s_user > 0 && speed.decode_band.cases > 0);
  rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects['chart-batch'] && rects['chart-context'], 'both charts drawn');
  let shot = await page.screenshot({ path: join(artifacts, 'page-speed.png') });
  assert.ok(imageStats(shot).colors > 50);

  await click(rects['tab-compare']);
  let ui = JSON.parse(await readBack(page, 'gpuplan_ui_state'));
  assert.equal(ui.tab, 'compare');
  assert.ok(ui.compare_ms < 100, `ranking the catalog took ${ui.compare_ms} ms`);
  const compare = await result(page, 'compare');
  assert.equal(compare.schema, 'gpuplan.compare/1');
  assert.deepEqual(compare, cliJson('compare', state));
  shot = await page.screenshot({ path: join(artifacts, 'page-compare.png') });
  assert.ok(imageStats(shot).colors > 50);

  // Clicking a column header sorts by it; the CLI sorts the same way.
  rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects['compare-col:gpu'], 'the compare table reports its header rectangles');
  await click(rects['compare-col:gpu']);
  ui = JSON.parse(await readBack(page, 'gpuplan_ui_state'));
  assert.equal(ui.compare_sort, 'gpu');
  const byGpu = await result(page, 'compare');
  const r = spawnSync(cli, ['compare', '--state', state, '--format', 'json', '--sort', 'gpu'], { encoding: 'utf8' });
  assert.deepEqual(byGpu, JSON.parse(r.stdout));
  assert.deepEqual(errors, []);
  await page.close();
});

// The same numbers, to the last digit or two: a workload's draws go through libm's log, exp and
// cos, which differ by an ulp between glibc and the wasm build's musl.
function close(a, b, path) {
  if (typeof a === 'number' && typeof b === 'number') {
    assert.ok(a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)), `${path}: ${a} vs ${b}`);
  } else if (a && typeof a === 'object') {
    assert.deepEqual(Object.keys(a), Object.keys(b), path);
    for (const k of Object.keys(a)) close(a[k], b[k], `${path}.${k}`);
  } else {
    assert.equal(a, b, path);
  }
}

test('the Serve panel runs the workload typed on it and shows what gpuplan serve prints', async () => {
  const hash = 'v=1&model=llama-3.1-8b&gpu=h100-sxm&tab=serve&requests=200';
  const { page, errors } = await openPage(hash);
  await waitFrames(page, 3);
  let rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects.rate && rects.lengths, 'the workload inputs are drawn from their fields');
  await typeInto(page, rects.rate, '6');
  rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  await typeInto(page, rects.lengths, '1024/128');
  await waitFrames(page, 4);  // the run happens between frames
  const state = await readBack(page, 'gpuplan_state_hash');
  assert.match(state, /rate=6/);
  assert.match(state, /lengths=1024%2F128|lengths=1024\/128/);
  const fromPage = await result(page, 'serve');
  assert.equal(fromPage.schema, 'gpuplan.serve/1');
  assert.equal(fromPage.workload.rate, 6);
  assert.ok(fromPage.result.ttft_s.p90 > 0 && fromPage.result.output_tokens_per_s > 0);
  assert.match(fromPage.launch.command, /^vllm serve meta-llama\/Llama-3\.1-8B .*--max-model-len 1152/);
  close(fromPage, cliJson('serve', state), 'serve');
  const ui = JSON.parse(await readBack(page, 'gpuplan_ui_state'));
  assert.equal(ui.tab, 'serve');
  // Latency against load: one point per task between frames, then both charts.
  for (let i = 0; i < 40 && !JSON.parse(await readBack(page, 'gpuplan_widget_rects'))['chart-serve-ttft']; ++i)
    await waitFrames(page, 2);
  rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects['chart-serve-tpot'] && rects['chart-serve-ttft'], 'the load charts are drawn');
  assert.equal(fromPage.load_curve.points.length, 9);
  const shot = await page.screenshot({ path: join(artifacts, 'page-serve.png') });
  assert.ok(imageStats(shot).colors > 50);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Plan panel searches between frames with its progress, then plots and opens a setup in Serve', async () => {
  const hash = 'v=1&model=llama-3.1-70b&tab=plan&rate=4&requests=300&tpot-sla=0.05&ttft-sla=2';
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // The longest the main thread went without an animation frame, from before the page's script.
  await page.addInitScript(() => {
    window.__gaps = [];
    let last = performance.now();
    const tick = (t) => { window.__gaps.push(t - last); last = t; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  await page.goto(url + '#' + hash);
  await waitFrames(page, 1);
  let sawProgress = false, done = false;
  for (let i = 0; i < 400 && !done; ++i) {
    const rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
    // From the first progress bar on (before it, the deferred module loads: a link that opens on
    // this panel calls its code in the first frame).
    if (!sawProgress && rects['plan-progress']) await page.evaluate(() => { window.__gaps = []; });
    sawProgress = sawProgress || Boolean(rects['plan-progress']);
    done = Boolean(rects['plan-use-0']);
    if (!done) await page.waitForTimeout(20);
  }
  assert.ok(sawProgress, 'a progress bar while the search runs');
  assert.ok(done, 'the search completes and offers its cheapest setups');
  // The search ran in slices between frames: no frame was held up by it for long (the slice is
  // ~12 ms; one replay of 600 requests is the largest unit).
  const gaps = await page.evaluate(() => window.__gaps.slice(1));
  const worst = Math.max(...gaps);
  console.log(`plan on the page: ${gaps.length} animation frames, the longest gap ${worst.toFixed(0)} ms: ${gaps.map((g) => g.toFixed(0)).join(" ")}`);
  assert.ok(gaps.length >= 3, 'frames were drawn while the search ran');
  assert.ok(worst < 250, `a frame waited ${worst} ms`);
  const state = await readBack(page, 'gpuplan_state_hash');
  const fromPage = await result(page, 'plan');
  assert.equal(fromPage.schema, 'gpuplan.plan/1');
  assert.ok(fromPage.rows.length > 0 && fromPage.rows[0].meets);
  const fromCli = cliJson('plan', state);
  delete fromPage.ms; delete fromCli.ms;
  close(fromPage, fromCli, 'plan');
  let rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects['chart-plan'], 'the Pareto plot is drawn');
  const shot = await page.screenshot({ path: join(artifacts, 'page-plan.png') });
  assert.ok(imageStats(shot).colors > 50);
  // Serve on the cheapest: the scenario takes its setup, the rate its share of the load.
  const best = fromPage.rows[0];
  await clickWidget(page, 'plan-use-0', 4);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).tab, 'serve');
  const served = await readBack(page, 'gpuplan_state_hash');
  const params = new URLSearchParams(served);
  assert.equal(params.get('gpu') ?? 'h100-sxm', best.gpu);
  assert.equal(params.get('engine') ?? 'vllm', best.engine);
  assert.equal(Number(params.get('rate')), 4 / best.replicas);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Train panel shows what gpuplan train prints', async () => {
  const hash = 'v=1&model=llama-3-8b&gpu=a100-sxm-80gb&dp=8&zero=3&context=4096&tokens=100000000000';
  const { page, errors } = await openPage(hash);
  let rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  await page.mouse.click((rects['tab-train'].x0 + rects['tab-train'].x1) / 2, (rects['tab-train'].y0 + rects['tab-train'].y1) / 2,
    { delay: 80 });
  await waitFrames(page, 3);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).tab, 'train');
  const state = await readBack(page, 'gpuplan_state_hash');
  const fromPage = await result(page, 'train');
  assert.equal(fromPage.schema, 'gpuplan.train/1');
  assert.deepEqual(fromPage, cliJson('train', state));
  rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects['chart-scaling'] && rects['train-verdict']);
  // Training's inputs only: the model, GPUs, sequence length and GPU memory; no engine, KV
  // cache, prompt, batch or serving layout.
  for (const key of ['model', 'gpu', 'tp', 'pp', 'context', 'ecc', 'method', 'zero']) assert.ok(rects[key], `Train shows ${key}`);
  for (const key of ['engine', 'kv', 'prompt', 'batch', 'graphs', 'split', 'ep']) assert.equal(rects[key], undefined, `Train hides ${key}`);
  const shot = await page.screenshot({ path: join(artifacts, 'page-train.png') });
  assert.ok(imageStats(shot).colors > 50);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Roofline panel: the CLI\'s operations, a dropped GPU probe adds measured ceilings, the SVG parses', async () => {
  const hash = 'v=1&model=llama-3.1-8b&gpu=h100-sxm&prompt=4096&context=8192&batch=8';
  const { page, errors } = await openPage(hash);
  await clickWidget(page, 'tab-roofline');
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).tab, 'roofline');
  const state = await readBack(page, 'gpuplan_state_hash');
  const fromPage = await result(page, 'roofline');
  assert.equal(fromPage.schema, 'gpuplan.roofline/1');
  assert.deepEqual(fromPage, cliJson('roofline', state));
  // A probe result dropped on the page: its ceilings join the chart.
  const probePath = join(process.env.GPUPLAN_SOURCE_DIR, 'tests/reference/device/h200-2026-11-30-probe.json');
  const text = readFileSync(probePath, 'utf8');
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], 'h200-probe.json', { type: 'application/json' }));
    document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, text);
  await waitFrames(page, 3);
  assert.match(JSON.parse(await readBack(page, 'gpuplan_ui_state')).gpu_probe, /H200/);
  const rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects['chart-roofline'] && rects['roof-table']);
  const shot = await page.screenshot({ path: join(artifacts, 'page-roofline.png') });
  assert.ok(imageStats(shot).colors > 50);
  // The CLI's SVG of the same scenario, opened in the same browser: a well-formed document.
  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-svg-'));
  const svgPath = join(dir, 'roof.svg');
  const r = spawnSync(cli, ['roofline', '--state', state, '--svg', svgPath, '--measured', probePath], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const svgPage = await browser.newPage({ viewport: { width: 820, height: 1100 } });
  await svgPage.goto('file://' + svgPath);
  const parsed = await svgPage.evaluate(() => ({
    error: document.getElementsByTagName('parsererror').length,
    roofs: document.querySelectorAll('polyline.roof').length,
    points: document.querySelectorAll('circle.point').length,
    width: document.documentElement.getBBox().width,
  }));
  assert.equal(parsed.error, 0);
  // H100: FP8 and FP16 dense, and the attainable roof (published copy and GEMM runs); H200 (the
  // probe's GPU): the same three, and the measured FP16 GEMM under the probe's memory and L2
  // read bandwidths.
  assert.equal(parsed.roofs, 8);
  assert.ok(parsed.points >= 20);
  assert.ok(parsed.width > 500);
  await svgPage.screenshot({ path: join(artifacts, 'roofline-svg.png') });
  await svgPage.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('This machine: the quick CPU probe runs in the page, its result loads back and joins the roofline', async () => {
  const { page, errors } = await openPage('v=1&model=llama-3.1-8b&gpu=rtx-4090');
  const probe = await measureQuick(page);
  const ui = JSON.parse(await readBack(page, 'gpuplan_ui_state'));
  assert.equal(ui.tab, 'machine');
  assert.match(ui.cpu_probe, /WebAssembly/);
  assert.equal(probe.schema, 'gpuplan.cpu-probe/1');
  assert.equal(probe.cpu.isa, 'wasm-simd128');
  const gemm = probe.gemm.points;
  assert.ok(gemm.length >= 1 && gemm[0].flops_per_s > 1e9, JSON.stringify(gemm));
  // The test server sends COOP/COEP: the page is isolated and the threaded module measured on
  // every core the browser reports.
  const cores = await page.evaluate(() => (self.crossOriginIsolated ? navigator.hardwareConcurrency : 1));
  assert.equal(Math.max(...gemm.map((g) => g.threads)), cores);
  assert.equal(probe.cpu.logical_cpus, cores);
  await waitFrames(page, 3);
  await page.screenshot({ path: join(artifacts, 'page-machine.png') });
  // The CLI reads the page's result (as if saved with Copy JSON) and draws it on the roofline.
  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-machine-'));
  const saved = join(dir, 'cpu.json');
  writeFileSync(saved, JSON.stringify(probe));
  const shown = spawnSync(cli, ['probe', 'compare', saved], { encoding: 'utf8' });
  assert.equal(shown.status, 0, shown.stderr);
  assert.match(shown.stdout, /WebAssembly/);
  await clickWidget(page, 'tab-roofline');
  await page.screenshot({ path: join(artifacts, 'page-roofline-cpu.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('This machine without cross-origin isolation (an iframe in a blog) measures on one thread', async () => {
  const plain = await startServer(site, 0, '127.0.0.1', false);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(plain.url + '#v=1');
  await waitFrames(page, 3);
  assert.equal(await page.evaluate(() => self.crossOriginIsolated), false);
  const probe = await measureQuick(page);
  assert.deepEqual([...new Set(probe.gemm.points.map((g) => g.threads))], [1]);
  assert.deepEqual(errors, []);
  await page.close();
  plain.server.close();
});

test('Presets: the seed\'s Llama 3 8B training example opens the Train panel with what gpuplan train --preset prints', async () => {
  const { page, errors } = await openPage('v=1');
  await clickWidget(page, 'presets');
  await page.screenshot({ path: join(artifacts, 'page-presets.png') });
  await clickWidget(page, 'preset-seed-llama3-8b-8xa100', 4);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).tab, 'train');
  assert.match(await page.evaluate(() => location.hash), /model=llama-3-8b.*dp=8/);
  const fromPage = await result(page, 'train');
  const r = spawnSync(cli, ['train', '--preset', 'seed-llama3-8b-8xa100', '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(fromPage, JSON.parse(r.stdout));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a config.json dropped on the page joins the catalog and computes like the CLI with the same file', async () => {
  const { page, errors } = await openPage('v=1&gpu=h100-sxm');
  const cfgPath = join(process.env.GPUPLAN_SOURCE_DIR, 'tests/data/hf/mixtral-8x7b.config.json');
  const text = readFileSync(cfgPath, 'utf8');
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], 'mixtral-8x7b.config.json', { type: 'application/json' }));
    document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, text);
  await waitFrames(page, 3);
  const state = 'v=1&model=mixtral-8x7b&weights=bf16&kv=fp16&context=8192&batch=4&gpu=h100-sxm&count=2&overhead-gib=1';
  await page.evaluate((h) => { location.hash = h; }, state);
  await waitFrames(page, 3);
  const fromPage = await report(page);
  assert.equal(fromPage.model.name, 'mixtral-8x7b (imported)');
  assert.equal(fromPage.model.params, 46702792704);

  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-drop-'));
  const catalogFile = join(dir, 'mixtral.json');
  const out = spawnSync(cli, ['import-hf', cfgPath, '--id', 'mixtral-8x7b', '--name', 'mixtral-8x7b (imported)', '--format', 'json'], { encoding: 'utf8' });
  writeFileSync(catalogFile, out.stdout);
  const r = spawnSync(cli, ['--catalog', catalogFile, 'fit', '--state', state, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(fromPage, JSON.parse(r.stdout));
  assert.deepEqual(errors, []);
  await page.close();
});

// The page embeds the catalog without what only the Catalog panel and tooltips show, and
// without fields the core never reads (cmake/catalog_lean.py); the CLI has every file whole.
// Every built-in model, accelerator and engine must still give the CLI's fit and speed, byte
// for byte (or the same error: a GPU without a bandwidth figure has no speed).
test('every model, GPU and engine: the page\'s embedded catalog computes what the CLI does with the full one', async () => {
  const { page, errors } = await openPage('v=1');
  await page.setViewportSize({ width: 320, height: 240 });  // cheaper frames: ~150 scenarios follow
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).sources, 'elsewhere');
  const entries = (file, key) =>
    JSON.parse(readFileSync(join(process.env.GPUPLAN_SOURCE_DIR, 'assets/catalog', file), 'utf8'))[key].map((e) => e.id);
  const gpuFiles = readdirSync(join(process.env.GPUPLAN_SOURCE_DIR, 'assets/catalog')).filter((f) => /^gpus.*\.json$/.test(f));
  const hashes = [
    ...entries('models.json', 'models').map((id) => `v=1&model=${id}&gpu=h100-sxm&count=8&batch=4`),
    ...gpuFiles.flatMap((f) => entries(f, 'gpus')).map((id) => `v=1&model=llama-3.1-8b&weights=q4_k_m&gpu=${id}&batch=4`),
    ...entries('engines.json', 'engines').map((id) => `v=1&model=qwen2.5-7b&gpu=l40s&engine=${id}&batch=8`),
  ];
  assert.ok(hashes.length >= 140, `${hashes.length} scenarios`);
  const checks = [];  // the CLI runs beside the page, not after it
  for (const hash of hashes) {
    await page.evaluate((h) => { location.hash = h; }, hash);
    await waitFrames(page, 2);
    for (const which of ['fit', 'speed']) {
      const fromPage = await result(page, which);
      checks.push(execFileP(cli, [which, '--state', hash, '--format', 'json']).then(
        ({ stdout }) => assert.deepEqual(fromPage, JSON.parse(stdout), `${which}: ${hash}`),
        (e) => assert.equal(`gpuplan: error: ${fromPage.error}\n`, e.stderr, `${which}: ${hash}`)));
    }
  }
  await Promise.all(checks);
  // Nothing above needed the files it left out; the Weights tooltip (a format's derivation) does.
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).sources, 'elsewhere');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitFrames(page, 3);
  const rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  await page.mouse.move((rects.weights.x0 + rects.weights.x1) / 2, (rects.weights.y0 + rects.weights.y1) / 2);
  let ui;
  for (let i = 0; i < 50 && (ui = JSON.parse(await readBack(page, 'gpuplan_ui_state'))).sources !== 'loaded'; ++i)
    await waitFrames(page, 2);
  assert.equal(ui.sources, 'loaded');
  await waitFrames(page, 30);  // ImGui's tooltip delay
  await page.screenshot({ path: join(artifacts, 'page-weights-tooltip.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

// The GPU memory group (capacity.h): what other processes hold, ECC, a MIG slice, each through
// the shared parser, so the page, its link and the CLI's flags give the same device rows.
test('GPU memory: used-gib and ECC off on an L40S give what gpuplan fit --used-gib --ecc prints', async () => {
  const { page, errors } = await openPage('v=1&model=llama-3.1-8b&gpu=l40s');
  const before = await report(page);
  assert.equal(before.scenario.ecc, 'default');
  assert.ok(!before.per_gpu.device.steps.some((s) => s.key === 'other_processes'));
  let rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  for (const k of ['ecc', 'mig', 'gpu-mem-gib', 'used-gib']) assert.ok(rects[k], `the ${k} input reports its rectangle`);
  await typeInto(page, rects['used-gib'], '2');
  await clickWidget(page, 'ecc');
  await clickWidget(page, 'ecc:off');
  const r = await report(page);
  assert.equal(r.scenario['used-gib'], 2);
  assert.equal(r.scenario.ecc, 'off');
  assert.match(await page.evaluate(() => location.hash), /&ecc=off(&.*)?&used-gib=2(&|$)/);
  assert.deepEqual(r, cliReport(r.state));
  const flags = spawnSync(cli, ['fit', '--model', 'llama-3.1-8b', '--gpu', 'l40s', '--ecc', 'off', '--used-gib', '2',
    '--format', 'json'], { encoding: 'utf8' });
  assert.equal(flags.status, 0, flags.stderr);
  assert.deepEqual(r, JSON.parse(flags.stdout));
  const steps = r.per_gpu.device.steps;
  const used = steps.find((s) => s.key === 'other_processes');
  assert.ok(used, JSON.stringify(steps));
  assert.equal(used.name, 'Used by other processes');
  assert.equal(used.bytes, 2 * 2 ** 30);
  // ECC off: no reservation, and the device total is the reading (ECC on) given back its 1/16.
  assert.ok(!steps.some((s) => s.key === 'ecc'));
  assert.ok(Math.abs(r.per_gpu.device.total_bytes / before.per_gpu.device.total_bytes - 16 / 15) < 1e-9);
  assert.equal(r.per_gpu.device.free_bytes, r.per_gpu.device.runtime_bytes - 2 * 2 ** 30);
  const shot = await page.screenshot({ path: join(artifacts, 'page-gpu-memory.png') });
  assert.ok(imageStats(shot).colors > 50);
  // At phone width the inputs fold above the result: opened, the group is there, and scrolled
  // down the Fit rows with "Used by other processes" follow.
  await page.setViewportSize({ width: 390, height: 844 });
  await waitFrames(page, 4);
  await clickWidget(page, 'inputs');
  rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects['used-gib'].x1 <= 390, JSON.stringify(rects['used-gib']));
  assert.ok(imageStats(await page.screenshot({ path: join(artifacts, 'page-gpu-memory-phone.png') })).colors > 20);
  await page.mouse.move(195, 600);
  for (let i = 0; i < 12; ++i) {
    await page.mouse.wheel(0, 120);
    await waitFrames(page, 1);
  }
  await page.mouse.move(389, 843);  // no tooltip over the rows
  await waitFrames(page, 3);
  await page.screenshot({ path: join(artifacts, 'page-gpu-memory-phone-rows.png') });
  assert.deepEqual(await report(page), r);
  assert.deepEqual(errors, []);
  await page.close();
});

test('GPU memory: MIG 1g.10gb on an H100 SXM plans against the slice; another GPU runs whole', async () => {
  const { page, errors } = await openPage('v=1&model=llama-3.1-8b&weights=q4_k_m&gpu=h100-sxm');
  const whole = await report(page);
  await clickWidget(page, 'mig');
  await page.screenshot({ path: join(artifacts, 'page-mig-open.png') });
  await clickWidget(page, 'mig:1g.10gb');
  const r = await report(page);
  assert.equal(r.scenario.mig, '1g.10gb');
  assert.deepEqual(r, cliReport(r.state));
  const device = r.per_gpu.device;
  const slice = 9984 * 2 ** 20;  // nvidia-smi mig -lgip: 9.75 GiB
  assert.ok(device.steps.some((s) => s.key === 'mig'), JSON.stringify(device.steps));
  assert.equal(device.free_bytes, slice);
  assert.ok(r.usable_bytes <= slice && r.usable_bytes < whole.usable_bytes / 4, `${r.usable_bytes} of ${whole.usable_bytes}`);
  await page.screenshot({ path: join(artifacts, 'page-mig.png') });
  // The Catalog's "Use in Fit" picks an L40S, which has no MIG: the scenario goes back to the
  // whole GPU rather than an estimate that errors.
  await clickWidget(page, 'tab-catalog');
  // The panel fetches the catalog's sources when first shown, and its layout moves when they
  // arrive (slower on a first visit through the service worker): type once they are in.
  for (let i = 0; i < 50 && JSON.parse(await readBack(page, 'gpuplan_ui_state')).sources !== 'loaded'; ++i)
    await waitFrames(page, 2);
  let rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  await typeInto(page, rects['catalog-search'], 'L40S');
  await clickWidget(page, 'row:l40s');
  await clickWidget(page, 'use-in-fit');
  const other = await report(page);
  assert.equal(other.scenario.gpu, 'l40s');
  assert.equal(other.scenario.mig, 'none');
  assert.equal(other.error, undefined);
  assert.deepEqual(other, cliReport(other.state));
  rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects.mig, 'the MIG combo is drawn (disabled) for a GPU without profiles');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a phone-width viewport still renders the panel', async () => {
  // (tests/e2e/phone.test.mjs drives a phone by touch; this one only loads a narrow page.)
  const page = await browser.newPage({ viewport: { width: 380, height: 700 } });
  await page.goto(url + '#v=1&model=qwen2.5-7b&gpu=l4');
  await waitFrames(page, 3);
  assert.equal((await report(page)).scenario.gpu, 'l4');
  const stats = imageStats(await page.screenshot({ path: join(artifacts, 'page-phone.png') }));
  assert.equal(stats.width, 380);
  assert.ok(stats.colors > 20);
  await page.close();
});


// The CLI command an export button copied, run through the real binary with another format.
function runCopiedCommand(cmd, format) {
  assert.match(cmd, /^gpuplan [a-z]+ /);
  const r = spawnSync('sh', ['-c', `"$GPUPLAN_BIN" ${cmd.slice('gpuplan '.length)} --format ${format}`],
    { encoding: 'utf8', env: { ...process.env, GPUPLAN_BIN: cli } });
  assert.equal(r.status, 0, `${cmd}: ${r.stderr}`);
  return r.stdout;
}

async function lastCopy(page) {
  return JSON.parse(await readBack(page, 'gpuplan_ui_state')).last_copy;
}

test('Cost: the panel computes what gpuplan cost prints; its chart and break-even are drawn', async () => {
  const hash = 'v=1&model=llama-3.1-70b&weights=q4_k_m&gpu=rtx-4090&count=2&engine=llama.cpp&price-hour=0.74&utilization=0.3&tab=cost';
  const { page, errors } = await openPage(hash);
  await waitFrames(page, 3);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).tab, 'cost');
  const fromPage = await result(page, 'cost');
  assert.equal(fromPage.schema, 'gpuplan.cost/1');
  const r = spawnSync(cli, ['cost', '--state', hash, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(fromPage, JSON.parse(r.stdout));
  assert.ok(fromPage.cost.break_even_months > 0);
  const rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  for (const k of ['cost-table', 'cost-chart', 'cost-break-even', 'spot-overhead', 'buy-usd']) assert.ok(rects[k], k);
  // Typing a utilisation changes the break-even the way the CLI says.
  await typeInto(page, rects.utilization, '0.9');
  const after = await result(page, 'cost');
  assert.equal(after.scenario.utilization, 0.9);
  assert.ok(after.cost.break_even_months < fromPage.cost.break_even_months);
  const shot = await page.screenshot({ path: join(artifacts, 'page-panel-cost.png') });
  assert.ok(imageStats(shot).colors > 50);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Money in yen: the seeds\' ¥200,000 budget ranks what the CLI ranks; the Cost panel charts yen', async () => {
  // The individual researcher's budget (a preset's link): the same rows as gpuplan compare --preset.
  const preset = spawnSync(cli, ['compare', '--preset', 'seed-budget-individual', '--format', 'json'], { encoding: 'utf8' });
  assert.equal(preset.status, 0, preset.stderr);
  const fromCli = JSON.parse(preset.stdout);
  const { page, errors } = await openPage(fromCli.state + '&tab=compare');
  await waitFrames(page, 3);
  const ui = JSON.parse(await readBack(page, 'gpuplan_ui_state'));
  assert.equal(ui.tab, 'compare');
  const compare = await result(page, 'compare');
  assert.deepEqual(compare, fromCli);
  assert.ok(compare.rows.length > 0);
  for (const row of compare.rows) assert.ok(row.upfront_usd * 155 < 220000, `${row.gpu} is over the budget`);
  const rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects['compare-max-upfront'] && rects['compare-currency'], 'the budget and the currency are on the filter bar');
  await page.screenshot({ path: join(artifacts, 'page-compare-yen-budget.png') });
  assert.deepEqual(errors, []);
  await page.close();
  // The Cost panel in yen, with a yen offer's monthly rent spread over the busy hours.
  const hash = 'v=1&model=llama-3.1-8b&gpu=h200-sxm&currency=jpy&utilization=0.9&tab=cost';
  const second = await openPage(hash);
  const cost = await result(second.page, 'cost');
  const r = spawnSync(cli, ['cost', '--state', hash, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(cost, JSON.parse(r.stdout));
  assert.equal(cost.cost.currency.code, 'JPY');
  assert.ok(cost.cost.currency.per_usd > 100);
  assert.match(cost.cost.cloud_basis, /a month ÷ \(730 h × 90% busy\)/);
  const shot = await second.page.screenshot({ path: join(artifacts, 'page-cost-yen.png') });
  assert.ok(imageStats(shot).colors > 50);
  assert.deepEqual(second.errors, []);
  await second.page.close();
});

test('Japanese: lang=ja draws Fit and Cost in Japanese with the font fetched for it; their Markdown is what gpuplan --lang ja prints', async () => {
  const hash = 'v=1&model=llama-3.1-70b&weights=q4_k_m&engine=llama.cpp&gpu=rtx-4090&tp=2&currency=jpy&cooling=air&lang=ja';
  const { page, errors } = await openPage(hash);
  await page.waitForFunction(() => JSON.parse(Module.UTF8ToString(Module._gpuplan_ui_state())).lang === 'ja', null, { timeout: 30000 });
  await waitFrames(page, 3);
  const exported = (kind, panel) => page.evaluate(([k, p]) => Module.ccall('gpuplan_export_text', 'string', ['string', 'string'], [k, p]), [kind, panel]);
  const missing = (text) => page.evaluate((t) => Module.ccall('gpuplan_missing_glyphs', 'number', ['string'], [t]), text);
  for (const panel of ['fit', 'cost']) {
    if (panel !== 'fit') await clickWidget(page, `tab-${panel}`, 4);
    const md = await exported('markdown', panel);
    const r = spawnSync(cli, [panel, '--state', hash, '--lang', 'ja', '--format', 'md'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(md, r.stdout, `${panel}: the page's Markdown is gpuplan ${panel} --lang ja`);
    assert.match(md, panel === 'fit' ? /収まる \(GPUあたり\)/ : /オンデマンド[\s\S]*ラック: GPU 4基のサーバー1台[\s\S]*液冷と空冷の比較/);
    assert.equal(await missing(md.replace(/[^\u3000-\u9fff\uff00-\uffef]/g, '')), 0, `${panel}: every Japanese character has a glyph`);
    assert.match(await exported('cli', panel), / --lang ja$/);
    const shot = imageStats(await page.screenshot({ path: join(artifacts, `page-${panel}-ja.png`) }));
    assert.ok(shot.colors > 50);
  }
  // A desktop IME: a click into a field moves the typing into the page's hidden input, where the
  // IME composes; its committed full-width digits set the field.
  await clickWidget(page, 'tab-fit', 4);
  const rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  await page.mouse.click(rects.context.x0 + 25, (rects.context.y0 + rects.context.y1) / 2, { delay: 80 });
  await page.waitForFunction(() => document.activeElement.id === 'text-entry', null, { timeout: 5000 });
  const cdp = await page.context().newCDPSession(page);
  await page.keyboard.press('Control+a');
  await cdp.send('Input.imeSetComposition', { text: '１２', selectionStart: 2, selectionEnd: 2 });
  await waitFrames(page, 2);
  await cdp.send('Input.insertText', { text: '１２２８８' });
  await page.keyboard.press('Enter');
  await waitFrames(page, 3);
  assert.equal((await report(page)).scenario.context, 12288);
  await clickWidget(page, 'tab-cost', 4);
  // Yen in 万 on the Cost panel, the link keeps the language.
  assert.match(await exported('markdown', 'cost'), /万円/);
  assert.match(await readBack(page, 'gpuplan_state_hash'), /&lang=ja/);
  // Back to English with the switch; the font stays loaded, the words change.
  await clickWidget(page, 'lang', 3);
  await clickWidget(page, 'lang:en', 3);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).lang, 'en');
  assert.doesNotMatch(await readBack(page, 'gpuplan_state_hash'), /lang=/);
  assert.match(await exported('markdown', 'cost'), /Buying pays off|on demand/);
  assert.deepEqual(errors, []);
  await page.close();
  // A language the page does not speak is named, and English kept.
  const bad = await openPage('v=1&lang=xx');
  const notices = JSON.parse(await readBack(bad.page, 'gpuplan_notices'));
  assert.ok(notices.some((n) => /lang: 'xx' is not a language/.test(n)), JSON.stringify(notices));
  assert.equal(JSON.parse(await readBack(bad.page, 'gpuplan_ui_state')).lang, 'en');
  await bad.page.close();
});

test('Export buttons on every panel: the copied CLI command prints the copied JSON and Markdown', async () => {
  const { page, errors } = await openPage('v=1&model=llama-3.1-8b&gpu=h100-sxm&batch=8&price-hour=2.5&buy-usd=30000');
  for (const panel of ['fit', 'speed', 'cost', 'compare', 'train', 'roofline']) {
    await clickWidget(page, `tab-${panel}`, 4);
    assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).tab, panel);
    await page.screenshot({ path: join(artifacts, `page-panel-${panel}.png`) });
    const copied = {};
    for (const kind of ['cli', 'json', 'markdown', 'link', 'embed']) {
      await clickWidget(page, `${panel}-copy-${kind}`, 3);
      const c = await lastCopy(page);
      assert.equal(c.kind, kind, `${panel}: the ${kind} button copied ${c.kind}`);
      copied[kind] = c.text;
    }
    // What reached the browser's clipboard path is the same text.
    assert.equal(await page.evaluate(() => Module.gpuplanLastCopy), copied.embed);
    assert.deepEqual(JSON.parse(copied.json), JSON.parse(runCopiedCommand(copied.cli, 'json')), `${panel}: json`);
    assert.equal(copied.markdown, runCopiedCommand(copied.cli, 'md'), `${panel}: markdown`);
    assert.match(copied.markdown, /^### gpuplan /);  // the whole report, as --format md prints it
    assert.match(copied.markdown, /^\| .* \|\n\| (---:?|---) \|/m);
    assert.ok(copied.link.startsWith(url + '#v=1&') && copied.link.endsWith(`&tab=${panel}`), copied.link);
    // The theme the author saw and the optional resize script.
    const theme = JSON.parse(await readBack(page, 'gpuplan_ui_state')).dark ? 'dark' : 'light';
    assert.match(copied.embed, new RegExp(`^<iframe src="${url}#embed=${panel}&theme=${theme}&v=1&[^"]+" width="100%" height="\\d+"`));
    assert.match(copied.embed, /<\/iframe>\n<script>addEventListener\('message'.*gpuplan:height.*<\/script>$/);
  }
  // The roofline's chart downloads as the SVG the CLI writes.
  await clickWidget(page, 'roofline-download-svg', 3);
  const svg = await lastCopy(page);
  assert.equal(svg.kind, 'svg');
  assert.match(svg.text, /^<\?xml[^>]*>\n<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('The other panels and the copied link: a link opens its panel with the same numbers', async () => {
  const { page, errors } = await openPage('v=1&model=qwen2.5-7b&gpu=l4');
  for (const panel of ['machine', 'catalog']) {
    await clickWidget(page, `tab-${panel}`, 4);
    await page.screenshot({ path: join(artifacts, `page-panel-${panel}.png`) });
  }
  const copied = await page.evaluate(() => Module.ccall('gpuplan_export_text', 'string', ['string', 'string'], ['link', 'speed']));
  const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await other.goto(copied);
  await waitFrames(other, 4);
  assert.equal(JSON.parse(await readBack(other, 'gpuplan_ui_state')).tab, 'speed');
  assert.deepEqual(await result(other, 'speed'), await result(page, 'speed'));
  assert.deepEqual(errors, []);
  await other.close();
  await page.close();
});

test('Start-up code: the first frame runs none of the deferred module, which arrives after it; a link to another panel waits for it', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const page = await browser.newPage({ viewport });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(url + '#v=1&model=llama-3.1-70b&weights=q4_k_m&gpu=rtx-4090&tp=2');
    await waitFrames(page, 3);
    assert.deepEqual(await page.evaluate(() => Module.gpuplanDeferred.calls), [],
      'a function the first frames call is listed in web/deferred_code.txt (the number is its placeholder: ' +
      'build/wasm/web/index.js.symbols.placeholders names it)');
    await page.waitForFunction(() => Module.gpuplanDeferred.module !== null, null, { timeout: 30000 });
    await clickWidget(page, 'tab-compare', 4);
    const calls = await page.evaluate(() => Module.gpuplanDeferred.calls);
    assert.equal(calls.length, 1, 'the deferred module is instantiated once');
    assert.ok(!calls[0].includes('synchronous'), 'from the module fetched after the first frame');
    assert.deepEqual(errors, []);
    await page.close();
  }
  // A link that opens on Train: the page starts once both modules are there, shows Train, and
  // its title and live region say so.
  const { page, errors } = await openPage('v=1&tab=train&model=llama-3.1-8b&gpu=a100-sxm-80gb&tp=1');
  const calls = await page.evaluate(() => Module.gpuplanDeferred.calls);
  assert.ok(calls.length === 1 && !calls[0].includes('synchronous'), JSON.stringify(calls));
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).tab, 'train');
  assert.match(await page.title(), /^gpuplan — Train: /);
  assert.match(await page.evaluate(() => document.getElementById('live').textContent), /^Train: .*(FITS|DOES NOT FIT)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Embed mode: one compact panel, sized to its frame, light or dark like the host page, crisp on HiDPI', async () => {
  const hash = 'embed=speed&v=1&model=llama-3.1-8b&gpu=rtx-4090&batch=4';
  const ctx = await browser.newContext({ viewport: { width: 560, height: 420 }, deviceScaleFactor: 2, colorScheme: 'light' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url + '#' + hash);
  await waitFrames(page, 4);
  const ui = JSON.parse(await readBack(page, 'gpuplan_ui_state'));
  assert.equal(ui.embed, 'speed');
  assert.equal(ui.dark, false);
  const rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.equal(rects['tab-fit'], undefined, 'no tab bar in embed mode');
  assert.ok(rects['speed-copy-embed'] && rects['embed-inputs']);
  // The canvas has device pixels: 2 x its CSS size.
  const canvas = await page.evaluate(() => [Module.canvas.width, Module.canvas.height, Module.canvas.clientWidth]);
  assert.equal(canvas[0], 2 * canvas[2]);
  const light = imageStats(await page.screenshot({ path: join(artifacts, 'embed-speed-light-hidpi.png') }));
  assert.equal(light.width, 1120);
  assert.ok(light.meanLuma > 170, `light embed has mean luma ${light.meanLuma}`);
  // The same numbers as the full page and the CLI.
  const r = spawnSync(cli, ['speed', '--state', hash, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(await result(page, 'speed'), JSON.parse(r.stdout));
  // The host switches to dark: the embed follows without a reload.
  await page.emulateMedia({ colorScheme: 'dark' });
  await waitFrames(page, 3);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).dark, true);
  const dark = imageStats(await page.screenshot({ path: join(artifacts, 'embed-speed-dark-hidpi.png') }));
  assert.ok(dark.meanLuma < 90, `dark embed has mean luma ${dark.meanLuma}`);
  // Resized to a phone-width frame it still draws, and the state in the hash keeps embed=.
  await page.setViewportSize({ width: 320, height: 480 });
  await waitFrames(page, 4);
  assert.equal(await page.evaluate(() => Module.canvas.clientWidth), 320);
  assert.ok(imageStats(await page.screenshot({ path: join(artifacts, 'embed-speed-phone.png') })).colors > 20);
  assert.match(await page.evaluate(() => location.hash), /&embed=speed/);
  // A bad panel name is a notice, and the full page is shown.
  await page.evaluate(() => { location.hash = 'embed=nope&v=1'; });
  await waitFrames(page, 3);
  assert.match(JSON.parse(await readBack(page, 'gpuplan_notices')).join('\n'), /embed: 'nope' is not a panel/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('Embed code options: theme and compact; a compact embed is the result alone', async () => {
  const { page, errors } = await openPage('embed=fit&v=1&model=llama-3.1-8b&gpu=rtx-4090');
  await clickWidget(page, 'fit-embed-options');
  await clickWidget(page, 'embed-theme:dark');
  await clickWidget(page, 'embed-compact');
  // Held across frames (ImGui 1.86 has no input queue: a key down and up within one frame under
  // load is missed, the options stay open and the next click only closes them).
  await page.keyboard.press('Escape', { delay: 80 });
  await waitFrames(page, 3);
  await clickWidget(page, 'fit-copy-embed');
  const copied = await lastCopy(page);
  assert.equal(copied.kind, 'embed', JSON.stringify(copied));
  const code = copied.text;
  const src = code.match(/src="([^"]+)"/)[1];
  assert.match(src, /#embed=fit&theme=dark&compact=1&v=1&model=llama-3\.1-8b&gpu=rtx-4090&cat=[0-9.]+&tab=fit$/);
  // The copied frame: no export buttons, no CLI twin; the same numbers; the verdict higher up
  // than in the same frame without compact=1.
  const open = async (at) => {
    const p = await browser.newPage({ viewport: { width: 700, height: 900 } });
    await p.goto(at);
    await waitFrames(p, 4);
    return [p, JSON.parse(await readBack(p, 'gpuplan_widget_rects'))];
  };
  const [compact, rects] = await open(src);
  const [normal, full] = await open(src.replace('&compact=1', ''));
  assert.equal(rects['fit-copy-link'], undefined);
  assert.ok(full['fit-copy-link']);
  assert.ok(rects['fit-verdict'].y0 < full['fit-verdict'].y0, 'the verdict moves up without the export bar');
  assert.deepEqual(await report(compact), await report(page));
  assert.equal(JSON.parse(await readBack(compact, 'gpuplan_ui_state')).dark, true);
  await normal.close();
  await compact.screenshot({ path: join(artifacts, 'embed-compact.png') });
  await compact.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('A blog post embeds the calculator in an iframe from another origin', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-blog-'));
  const html = readFileSync(join(process.env.GPUPLAN_SOURCE_DIR, 'tests/e2e/blog/index.html'), 'utf8');
  writeFileSync(join(dir, 'index.html'), html.replaceAll('CALCULATOR_URL', url));
  const blog = await startServer(dir, 0, '127.0.0.1', false);  // a plain static host: no COOP/COEP
  const ctx = await browser.newContext({ viewport: { width: 900, height: 1100 }, colorScheme: 'light' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(blog.url);
  let frame;
  for (let i = 0; i < 100 && !frame; ++i) {
    frame = page.frames().find((f) => f.url().startsWith(url));
    if (!frame) await page.waitForTimeout(100);
  }
  assert.ok(frame, `no frame from ${url} among ${page.frames().map((f) => f.url()).join(' ')}`);
  await frame.waitForFunction(() => window.Module?.calledRun && Module._gpuplan_frame_count() > 4, null, { timeout: 30000 });
  const ui = JSON.parse(await frame.evaluate(() => Module.UTF8ToString(Module._gpuplan_ui_state())));
  assert.equal(ui.embed, 'fit');
  assert.equal(ui.dark, false);
  const fromFrame = JSON.parse(await frame.evaluate(() => Module.UTF8ToString(Module._gpuplan_report_json())));
  assert.equal(fromFrame.scenario.model, 'llama-3.1-70b');
  assert.deepEqual(fromFrame, cliReport(fromFrame.state));
  // The iframe takes the article's width, and the article text is around it; the embed code's
  // script sets its height to what the panel reports, so nothing is cut.
  await page.waitForFunction(() => document.getElementById('calc').style.height !== '', null, { timeout: 30000 });
  const posted = await page.evaluate(() => parseFloat(document.getElementById('calc').style.height));
  const content = await frame.evaluate(() => Module.canvas.clientHeight);
  const box = await page.locator('#calc').boundingBox();
  assert.ok(box.width > 600 && Math.abs(box.height - (posted + 2)) <= 1, JSON.stringify({ box, posted }));  // + the 1 px border
  assert.ok(posted > 300 && posted !== 520, `the frame follows its content (${posted} px)`);
  assert.ok(Math.abs(content - posted) <= 1, `the canvas fills the resized frame (${content} vs ${posted})`);
  assert.equal(await frame.evaluate(() => Module.canvas.clientWidth), Math.round(box.width) - 2);
  const shot = await page.screenshot({ path: join(artifacts, 'blog-embed.png'), fullPage: true });
  assert.ok(imageStats(shot).colors > 50);
  assert.deepEqual(errors, []);
  await ctx.close();
  blog.server.close();
});

test('Click to load: a post with three embeds fetches no calculator until the reader asks for one', async () => {
  // The author's path: the embed code copied with "click to load" ticked in its options.
  const { page: author, errors: authorErrors } = await openPage('v=1&model=llama-3.1-70b&weights=q4_k_m&gpu=rtx-4090&tp=2');
  await clickWidget(author, 'fit-embed-options', 3);
  await clickWidget(author, 'embed-facade', 3);
  const code = await author.evaluate(() => Module.ccall('gpuplan_export_text', 'string', ['string', 'string'], ['embed', 'fit']));
  assert.match(code, /&facade=Fit%3A%20Llama%203\.1%2070B%20on%202%20%C3%97%20NVIDIA%20GeForce%20RTX%204090&/);
  assert.deepEqual(authorErrors, []);
  await author.close();

  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-blog-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>Three embeds</title>' +
    '<body style="max-width:46em;margin:2em auto;font:17px Georgia,serif">' +
    // The third shows another panel (whose code is deferred): it too fetches nothing up front.
    ['<p>First.</p>', '<p>Second.</p>', '<p>Third.</p>'].map((p, i) => p + (i === 2 ? code.replace('#embed=fit&', '#embed=compare&') : code))
      .join('\n') + '</body>');
  const blog = await startServer(dir, 0, '127.0.0.1', false);
  const ctx = await browser.newContext({ viewport: { width: 800, height: 2400 }, colorScheme: 'light' });
  const page = await ctx.newPage();
  const fetched = [], errors = [];
  page.on('request', (r) => { if (r.url().startsWith(url)) fetched.push(new URL(r.url()).pathname.slice(1)); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(blog.url);
  // Each frame sizes itself to its preview (gpuplan:height) and shows the caption and a button.
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.style.height !== ''), null, { timeout: 30000 });
  const frames = page.frames().filter((f) => f.url().startsWith(url));
  assert.equal(frames.length, 3);
  for (const [i, f] of frames.entries()) {
    await f.waitForFunction(() => !document.getElementById('facade').hidden, null, { timeout: 30000 });
    assert.equal(await f.evaluate(() => document.querySelector('#facade .caption').textContent),
                 'Fit: Llama 3.1 70B on 2 × NVIDIA GeForce RTX 4090');
    assert.equal(await f.evaluate(() => document.querySelector('#facade img').getAttribute('src')),
                 i === 2 ? 'preview-compare-light.svg' : 'preview-fit-light.svg');
    await f.waitForFunction(() => document.querySelector('#facade img').complete, null, { timeout: 30000 });
    assert.ok(await f.evaluate(() => document.querySelector('#facade img').naturalHeight) > 100, 'the preview image loads');
  }
  await page.screenshot({ path: join(artifacts, 'blog-facades.png'), fullPage: true });
  assert.ok(!fetched.some((f) => /^index\.(js|wasm|deferred\.wasm)$/.test(f)), `nothing of the calculator yet: ${fetched.join(' ')}`);
  // The reader opens the second one, with the keyboard: Tab to its button, Enter.
  await frames[1].focus('#facade button');
  await page.keyboard.press('Enter');
  await frames[1].waitForFunction(() => window.Module?.calledRun && Module._gpuplan_frame_count() > 3, null, { timeout: 30000 });
  const report = JSON.parse(await frames[1].evaluate(() => Module.UTF8ToString(Module._gpuplan_report_json())));
  assert.equal(report.scenario.model, 'llama-3.1-70b');
  assert.deepEqual(report, cliReport(report.state));
  for (const f of [frames[0], frames[2]]) assert.equal(await f.evaluate(() => typeof Module.calledRun), 'undefined');
  assert.equal(fetched.filter((f) => f === 'index.wasm').length, 1, 'one calculator loaded');
  await page.screenshot({ path: join(artifacts, 'blog-facade-opened.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await ctx.close();
  blog.server.close();
});

test('Keyboard: Tab moves between the inputs, typing and Enter set a field', async () => {
  const { page, errors } = await openPage('v=1&model=llama-3.1-8b&gpu=rtx-4090');
  const rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  await page.mouse.click(rects.context.x0 + 25, (rects.context.y0 + rects.context.y1) / 2, { delay: 80 });
  await waitFrames(page, 2);
  await page.keyboard.press('Tab', { delay: 80 });  // to the prompt field
  await waitFrames(page, 2);
  await page.keyboard.press('Control+a', { delay: 80 });
  await waitFrames(page, 2);
  await page.keyboard.type('2048', { delay: 80 });
  await page.keyboard.press('Enter', { delay: 80 });
  await waitFrames(page, 3);
  const r = await report(page);
  assert.equal(r.scenario.prompt, 2048);
  assert.equal(r.scenario.context, 8192);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Keyboard and screen readers: Tab from load reaches the first field, the title and a live region say what is shown, Escape then Tab leaves', async () => {
  const { page, errors } = await openPage('v=1&model=llama-3.1-8b&gpu=rtx-4090');
  assert.equal(await page.title(), 'gpuplan — Fit: Llama 3.1 8B on 1 × NVIDIA GeForce RTX 4090');
  const live = () => page.evaluate(() => document.getElementById('live').textContent);
  assert.match(await live(), /^Fit: Llama 3\.1 8B on 1 × NVIDIA GeForce RTX 4090\. FITS: /);
  const canvas = await page.evaluate(() => {
    const c = document.getElementById('canvas');
    return { role: c.getAttribute('role'), label: c.getAttribute('aria-label'), focused: document.activeElement === c,
      keys: document.getElementById('keys').textContent };
  });
  assert.equal(canvas.role, 'application');
  assert.ok(canvas.focused && /which GPU/.test(canvas.label) && /Escape and then Tab/.test(canvas.keys), JSON.stringify(canvas));
  await page.keyboard.press('Tab', { delay: 80 });
  await waitFrames(page, 2);
  await page.keyboard.type('2', { delay: 80 });
  await page.keyboard.press('Enter', { delay: 80 });
  await waitFrames(page, 3);
  assert.equal((await report(page)).scenario.tp, 2);
  assert.match(await live(), /on 2 × NVIDIA GeForce RTX 4090\. FITS per GPU: /);
  assert.match(await page.title(), /on 2 × /);
  await page.keyboard.press('Tab', { delay: 80 });  // on to the next field
  await waitFrames(page, 2);
  await page.keyboard.press('Escape', { delay: 80 });
  await waitFrames(page, 2);
  await page.keyboard.press('Tab', { delay: 80 });
  assert.notEqual(await page.evaluate(() => document.activeElement.id), 'canvas', 'Escape then Tab left the calculator');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Model picker: Import opens a paste box; a config.json pasted on the page (a real Ctrl+V) joins the catalog', async () => {
  const { page, errors } = await openPage('v=1&gpu=h100-sxm');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  // Ctrl+V into a field: the clipboard's text goes in as typed.
  let rects0 = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  await page.mouse.click(rects0.context.x0 + 25, (rects0.context.y0 + rects0.context.y1) / 2, { delay: 80 });
  await waitFrames(page, 2);
  await page.keyboard.press('Control+a', { delay: 80 });
  await page.evaluate(() => navigator.clipboard.writeText('32768'));
  await page.keyboard.press('Control+v', { delay: 80 });
  // The field shows the pasted text (it goes in once Ctrl is up), then Enter sets it.
  await page.waitForFunction(() => Module.ccall('gpuplan_active_text', 'string', [], []) === '32768', null, { timeout: 10000 });
  await page.keyboard.press('Enter', { delay: 80 });
  await waitFrames(page, 3);
  assert.equal((await report(page)).scenario.context, 32768);
  await clickWidget(page, 'model-import', 3);
  const rects = JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
  assert.ok(rects['model-import-text'] && rects['model-import-add'], 'the Import popup shows its paste box');
  await page.screenshot({ path: join(artifacts, 'page-model-import.png') });
  await page.keyboard.press('Escape', { delay: 80 });
  await waitFrames(page, 3);
  // Ctrl+V with no field active: a config.json on the clipboard joins the catalog.
  const text = readFileSync(join(process.env.GPUPLAN_SOURCE_DIR, 'tests/data/hf/mixtral-8x7b.config.json'), 'utf8');
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('Control+v', { delay: 80 });
  await waitFrames(page, 3);
  await page.evaluate(() => { location.hash = 'v=1&model=imported-model&gpu=h100-sxm&count=2'; });
  await waitFrames(page, 3);
  const r = await report(page);
  assert.equal(r.scenario.model, 'imported-model');
  assert.equal(r.model.params, 46702792704);  // Mixtral 8x7B's parameter count, from its config
  assert.deepEqual(errors, []);
  await page.close();
});

writeFileSync(join(artifacts, 'README.txt'), 'Screenshots written by tests/e2e/page.test.mjs\n');

test('Idle: the page stops drawing when nothing happens and wakes on input - the title stays the page\'s', async () => {
  const { page, errors } = await openPage('v=1&model=llama-3.1-8b&gpu=rtx-4090');
  // The title names the panel and the scenario (SDL's window title never overwrites it).
  assert.match(await page.title(), /^gpuplan — Fit: Llama 3\.1 8B on 1 × NVIDIA GeForce RTX 4090$/);
  // Left alone, it draws out its grace period (about 1.5 s at 60 Hz) and then nothing.
  const count = () => page.evaluate(() => [Module._gpuplan_frame_count(), Module._gpuplan_idle_ticks()]);
  await page.waitForFunction(() => Module._gpuplan_idle_ticks() > 30, null, { timeout: 30000 });
  const [f0] = await count();
  await page.waitForTimeout(1000);
  const [f1, idle] = await count();
  assert.equal(f1, f0, 'no frame drawn in a second with no input');
  assert.ok(idle > 30, `animation ticks pass without drawing (${idle})`);
  // A mouse move wakes it; a click on a tab still works after idling.
  await page.mouse.move(200, 200);
  await waitFrames(page, 3);
  await clickWidget(page, 'tab-speed');
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).tab, 'speed');
  assert.deepEqual(errors, []);
  await page.close();
});

test('A huge dropped or pasted file is refused or read without harm; the page keeps working', async () => {
  const { page, errors } = await openPage('v=1&model=llama-3.1-8b&gpu=rtx-4090');
  // A tokenizer.json of ~6 MB (Llama 3's is 9 MB): read from the heap, not the stack, and refused by name.
  const six = await page.evaluate(() => {
    const vocab = {};
    for (let i = 0; i < 200000; ++i) vocab['token' + i] = i;
    return Module.gpuplanImport(JSON.stringify({ version: '1.0', model: { type: 'BPE', vocab, merges: new Array(250000).fill('ab cd') } }), 'tokenizer.json');
  });
  assert.equal(JSON.parse(six).ok, false);
  assert.match(JSON.parse(six).message, /tokenizer\.json/);
  // Over the limit: not read, and the message says why.
  const big = JSON.parse(await page.evaluate(() => Module.gpuplanImport('x'.repeat(17 * 1024 * 1024), 'weights.bin')));
  assert.equal(big.ok, false);
  assert.match(big.message, /'weights\.bin' is 17\.0 MiB, more than the 16 MiB an import may be/);
  // Still alive: a click on a tab works and the numbers are the CLI's.
  await clickWidget(page, 'tab-speed');
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).tab, 'speed');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Offline: once opened, a reload without a network still shows the calculator', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url + '#v=1&model=llama-3.1-8b&gpu=rtx-4090');
  await waitFrames(page, 3);
  // The service worker installs (caching the start-up files) and takes the page.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
  const online = JSON.parse(await readBack(page, 'gpuplan_report_json'));
  const onlineTrain = await result(page, 'train');
  await context.setOffline(true);
  await page.reload();
  await waitFrames(page, 3);
  // The report's JSON is deferred code: fetched (here from the cache) once the first frame is up.
  await page.waitForFunction(() => Module.gpuplanDeferred.module !== null, null, { timeout: 30000 });
  const offline = JSON.parse(await readBack(page, 'gpuplan_report_json'));
  assert.deepEqual(offline, online, 'the same numbers from the cached page');
  assert.equal(await page.evaluate(() => document.getElementById('overlay').classList.contains('hidden')), true);
  // The code split from the start-up module comes from the cache too.
  await clickWidget(page, 'tab-train', 4);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).tab, 'train');
  assert.deepEqual(await result(page, 'train'), onlineTrain);
  await page.screenshot({ path: join(artifacts, 'page-offline.png') });
  await context.setOffline(false);
  assert.deepEqual(errors, []);
  await context.close();
});
