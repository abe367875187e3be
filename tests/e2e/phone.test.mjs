// The page on a phone (390 x 844 CSS px, 3 device pixels per px, a touch screen), driven as a
// reader's thumb drives it: Chromium's own touch input (Input.dispatchTouchEvent, what a touch
// screen produces: the browser then decides on scrolling and emulated clicks itself), and text
// through the on-screen keyboard's path (Input.insertText into the focused element, which is
// how a virtual keyboard or an IME commits text). Numbers are read back and compared with the
// CLI's for the same scenario.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../scripts/static_server.mjs';
import { imageStats } from './png.mjs';
import { launchBrowser, readBack, waitFrames } from './harness.mjs';

const site = process.env.GPUPLAN_SITE;
const cli = process.env.GPUPLAN_CLI;
const artifacts = process.env.GPUPLAN_ARTIFACTS ?? mkdtempSync(join(tmpdir(), 'gpuplan-e2e-'));
assert.ok(site && cli, 'set GPUPLAN_SITE and GPUPLAN_CLI');
mkdirSync(artifacts, { recursive: true });

const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
let server, url, browser;

before(async () => {
  ({ server, url } = await startServer(site, 0));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.close();
});

const rectsOf = async (page) => JSON.parse(await readBack(page, 'gpuplan_widget_rects'));
const centre = (r) => [(r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2];

function cliFit(state) {
  const r = spawnSync(cli, ['fit', '--state', state, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// One finger: down at (x, y), `steps` moves to (x + dx, y + dy) `ms` apart, then up after
// `hold` ms without moving (0: lifted while moving, a fling).
async function swipe(page, cdp, x, y, dx, dy, { steps = 12, ms = 16, hold = 120 } = {}) {
  const point = (i) => [{ x: x + (dx * i) / steps, y: y + (dy * i) / steps, id: 1 }];
  // Each event carries the time a touch screen would stamp it with: a headless browser
  // drawing at 3x takes longer than `ms` per event, and the page reads a finger's speed from
  // the events' stamps, not from when it got round to handling them.
  const t0 = Date.now() / 1000;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(0), timestamp: t0 });
  for (let i = 1; i <= steps; ++i) {
    await page.waitForTimeout(ms);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(i), timestamp: t0 + (i * ms) / 1000 });
  }
  if (hold) await page.waitForTimeout(hold);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [], timestamp: t0 + (steps * ms + hold + 8) / 1000 });
}

async function tap(page, x, y) {
  await page.touchscreen.tap(x, y);
  await waitFrames(page, 2);
}

async function tapWidget(page, key) {
  const r = (await rectsOf(page))[key];
  assert.ok(r, `no widget '${key}'`);
  await tap(page, ...centre(r));
}

async function openPhone(hash) {
  const ctx = await browser.newContext(phone);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url + '#' + hash);
  await waitFrames(page, 3);
  return { ctx, page, errors, cdp: await ctx.newCDPSession(page) };
}

test('A phone: one tap per tab, a swipe scrolls and a fling glides, the 40th GPU is picked by touch, 32768 typed on the on-screen keyboard', async () => {
  const { ctx, page, errors, cdp } = await openPhone('v=1&model=llama-3.1-8b&gpu=rtx-4090');
  const ui = async () => JSON.parse(await readBack(page, 'gpuplan_ui_state'));

  // Every panel's name is whole, and one tap opens it.
  await tapWidget(page, 'tab-speed');
  assert.equal((await ui()).tab, 'speed');
  await tapWidget(page, 'tab-fit');
  assert.equal((await ui()).tab, 'fit');
  assert.ok((await rectsOf(page))['usage-legend'], 'the memory bar has its legend');
  await page.screenshot({ path: join(artifacts, 'phone-fit.png') });

  // The inputs open with one tap (a phone shows them folded, the answer first).
  assert.equal((await rectsOf(page)).context, undefined);
  await tapWidget(page, 'inputs');
  assert.ok((await rectsOf(page)).context, 'the inputs opened');
  // A slow swipe up moves the panel with the finger, and stops when the finger stops.
  const y0 = (await rectsOf(page))['fit-verdict'].y0;
  await swipe(page, cdp, 200, 700, 0, -300);
  await waitFrames(page, 20);
  const y1 = (await rectsOf(page))['fit-verdict'].y0;
  assert.ok(Math.abs(y0 - y1 - 300) <= 12, `a 300 px swipe moved the panel ${y0 - y1} px`);
  // A fling keeps going after the finger lifts, and comes to rest.
  await swipe(page, cdp, 200, 600, 0, -100, { steps: 5, ms: 10, hold: 0 });
  await waitFrames(page, 60);
  const y2 = (await rectsOf(page))['fit-verdict'].y0;
  assert.ok(y1 - y2 > 160, `a 100 px fling glided on: the panel moved ${y1 - y2} px`);
  await waitFrames(page, 5);
  assert.equal((await rectsOf(page))['fit-verdict'].y0, y2, 'the glide has stopped');
  await page.screenshot({ path: join(artifacts, 'phone-fit-scrolled.png') });
  // Back to the top (the panel does not scroll past its ends).
  for (let i = 0; i < 3; ++i) await swipe(page, cdp, 200, 150, 0, 650, { steps: 8, ms: 16 });
  await waitFrames(page, 30);
  assert.equal((await rectsOf(page))['fit-verdict'].y0, y0);

  // The GPU list scrolls under the finger to its 40th entry, and one tap picks it.
  await tapWidget(page, 'gpu');
  let rects = await rectsOf(page);
  const list = rects['gpu-list'];
  assert.ok(list, 'the GPU list opened');
  const entries = Object.entries(rects).filter(([k]) => k.startsWith('gpu:')).sort((a, b) => a[1].y0 - b[1].y0);
  assert.ok(entries.length >= 60, `${entries.length} GPUs listed`);
  const [key] = entries[39];
  // The list's search box takes IME text through the same hidden input: a composition shows
  // as it is typed, and what is committed filters the list.
  const search = rects['gpu-search'];
  assert.ok(search, 'the GPU list has its search box');
  await tap(page, ...centre(search));
  assert.equal(await page.evaluate(() => document.activeElement.id), 'text-entry');
  await cdp.send('Input.imeSetComposition', { text: 'h1', selectionStart: 2, selectionEnd: 2 });
  await waitFrames(page, 2);
  await cdp.send('Input.imeSetComposition', { text: 'h100', selectionStart: 4, selectionEnd: 4 });
  await waitFrames(page, 2);
  await cdp.send('Input.insertText', { text: 'H100' });
  await waitFrames(page, 3);
  let shown = Object.keys(await rectsOf(page)).filter((k) => k.startsWith('gpu:'));
  assert.ok(shown.length >= 2 && shown.every((k) => /h100/.test(k)), `the search 'H100' lists ${shown.join(' ')}`);
  // Emptied again with the keyboard's own keys, the whole list comes back.
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Backspace');
  await waitFrames(page, 3);
  rects = await rectsOf(page);
  shown = Object.keys(rects).filter((k) => k.startsWith('gpu:'));
  assert.equal(shown.length, entries.length);
  const names = (k) => rects[k] && rects[k].y0 >= list.y0 + 24 && rects[k].y1 <= list.y1 - 4;
  for (let i = 0; i < 12 && !names(key); ++i) {
    const [x] = centre(list);
    const down = rects[key].y0 > list.y1;
    await swipe(page, cdp, x, down ? list.y1 - 30 : list.y0 + 60, 0, down ? -(list.y1 - list.y0 - 120) : 120);
    await waitFrames(page, 20);
    rects = await rectsOf(page);
  }
  assert.ok(names(key), `${key} scrolled into the list (${JSON.stringify(rects[key])} in ${JSON.stringify(list)})`);
  await tap(page, ...centre(rects[key]));
  await waitFrames(page, 3);
  const gpu = key.slice('gpu:'.length);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_report_json')).scenario.gpu, gpu);
  await page.screenshot({ path: join(artifacts, 'phone-gpu-picked.png') });

  // Context: a tap on the field opens the on-screen keyboard (the hidden input takes the focus,
  // a number pad for a number); the keyboard's text and its Enter set the field.
  rects = await rectsOf(page);
  await tap(page, rects.context.x0 + 25, (rects.context.y0 + rects.context.y1) / 2);
  const focus = await page.evaluate(() => ({ id: document.activeElement.id, mode: document.activeElement.inputMode }));
  assert.deepEqual(focus, { id: 'text-entry', mode: 'decimal' });
  await cdp.send('Input.insertText', { text: '32768' });
  await waitFrames(page, 2);
  await page.screenshot({ path: join(artifacts, 'phone-typing.png') });
  await page.keyboard.press('Enter');
  await waitFrames(page, 3);
  const r = JSON.parse(await readBack(page, 'gpuplan_report_json'));
  assert.equal(r.scenario.context, 32768);
  assert.equal(r.scenario.gpu, gpu);
  assert.deepEqual(r, cliFit(r.state));
  assert.notEqual(await page.evaluate(() => document.activeElement.id), 'text-entry', 'the keyboard closed');
  // A typed number the parser refuses is named, not filtered: "1e9" GPUs.
  rects = await rectsOf(page);
  await tap(page, rects.tp.x0 + 25, (rects.tp.y0 + rects.tp.y1) / 2);
  await cdp.send('Input.insertText', { text: '1e9' });
  await page.keyboard.press('Enter');
  await waitFrames(page, 3);
  const refused = JSON.parse(await readBack(page, 'gpuplan_field_errors'));
  assert.match(refused.tp ?? '', /'1e9' must be a whole number/);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_report_json')).scenario.tp, 1);
  const shot = imageStats(await page.screenshot({ path: join(artifacts, 'phone-typed.png') }));
  assert.equal(shot.width, 390 * 3);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('A phone in Japanese: the page speaks Japanese in its own font, and a number typed through a Japanese IME (full-width) sets the field', async () => {
  const { ctx, page, errors, cdp } = await openPhone('v=1&model=llama-3.1-8b&gpu=rtx-4090&lang=ja');
  await page.waitForFunction(() => JSON.parse(Module.UTF8ToString(Module._gpuplan_ui_state())).lang === 'ja', null, { timeout: 30000 });
  await waitFrames(page, 3);
  const live = await page.evaluate(() => document.getElementById('live').textContent);
  assert.match(live, /収まる/);
  assert.equal(await page.evaluate((t) => Module.ccall('gpuplan_missing_glyphs', 'number', ['string'], [t]), live), 0,
    `every character of '${live}' has a glyph`);
  const shot = imageStats(await page.screenshot({ path: join(artifacts, 'phone-fit-ja.png') }));
  assert.ok(shot.colors > 50);
  await tapWidget(page, 'inputs');
  const rects = await rectsOf(page);
  await tap(page, rects.context.x0 + 25, (rects.context.y0 + rects.context.y1) / 2);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'text-entry');
  // What a Japanese IME does with 16384 typed in its default (full-width) mode: a composition
  // shown as it grows, then committed.
  await cdp.send('Input.imeSetComposition', { text: '１６', selectionStart: 2, selectionEnd: 2 });
  await waitFrames(page, 2);
  await cdp.send('Input.imeSetComposition', { text: '１６３８４', selectionStart: 5, selectionEnd: 5 });
  await waitFrames(page, 2);
  await cdp.send('Input.insertText', { text: '１６３８４' });
  await waitFrames(page, 2);
  await page.screenshot({ path: join(artifacts, 'phone-ime-ja.png') });
  await page.keyboard.press('Enter');
  await waitFrames(page, 3);
  const r = JSON.parse(await readBack(page, 'gpuplan_report_json'));
  assert.equal(r.scenario.context, 16384);
  assert.deepEqual(JSON.parse(await readBack(page, 'gpuplan_field_errors')), {});
  assert.match(await readBack(page, 'gpuplan_state_hash'), /&lang=ja/);
  // A character outside the font subset (a rare kanji an IME offers): the whole font is fetched
  // and the glyph drawn, not '?'; the field refuses the word and keeps its value.
  const rare = '鬱';
  const missing = () => page.evaluate((t) => Module.ccall('gpuplan_missing_glyphs', 'number', ['string'], [t]), rare);
  assert.equal(await missing(), 1, 'the subset lacks it');
  const again = await rectsOf(page);
  await tap(page, again.context.x0 + 25, (again.context.y0 + again.context.y1) / 2);
  await cdp.send('Input.insertText', { text: rare });
  for (let i = 0; i < 100 && (await missing()) !== 0; ++i) await waitFrames(page, 3);
  assert.equal(await missing(), 0, 'font-ja-full.ttf supplied the glyph');
  await page.screenshot({ path: join(artifacts, 'phone-rare-kanji-ja.png') });
  await page.keyboard.press('Escape');
  await waitFrames(page, 3);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_report_json')).scenario.context, 16384);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('A phone: the Catalog\'s search fits the screen and takes the on-screen keyboard; the panel does not jump when the sources arrive', async () => {
  const { ctx, page, errors, cdp } = await openPhone('v=1&tab=catalog');
  let rects = await rectsOf(page);
  const search = rects['catalog-search'];
  assert.ok(search.x0 >= 0 && search.x1 <= 390, `the search box is within the screen: ${JSON.stringify(search)}`);
  // The sources (fetched when the panel opens) arrive without moving the rows.
  await page.waitForFunction(() => JSON.parse(Module.UTF8ToString(Module._gpuplan_ui_state())).sources === 'loaded', null, { timeout: 30000 });
  await waitFrames(page, 2);
  assert.equal((await rectsOf(page))['catalog-search'].y0, search.y0);
  await tap(page, search.x0 + 25, (search.y0 + search.y1) / 2);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'text-entry');
  await cdp.send('Input.insertText', { text: 'h100' });
  await page.keyboard.press('Enter');
  await waitFrames(page, 3);
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).search, 'h100');
  rects = await rectsOf(page);
  assert.ok(Object.keys(rects).some((k) => k.startsWith('row:h100')), 'the H100s are listed');
  assert.ok(!Object.keys(rects).some((k) => k.startsWith('row:rtx-4090')), 'and the rest filtered out');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('A phone: a 5 MB file dropped on the page (a tokenizer.json) is refused with a message, and the page keeps working', async () => {
  const { ctx, page, errors } = await openPhone('v=1&model=llama-3.1-8b&gpu=rtx-4090');
  // The page's own drop handler reads the File (no shortcut into the wasm).
  const file = await page.evaluateHandle(() => {
    const vocab = {};
    for (let i = 0; i < 180000; ++i) vocab['token' + i] = i;
    const text = JSON.stringify({ version: '1.0', model: { type: 'BPE', vocab, merges: new Array(200000).fill('ab cd') } });
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'tokenizer.json', { type: 'application/json' }));
    return dt;
  });
  const size = await file.evaluate((dt) => dt.files[0].size);
  assert.ok(size > 5e6 && size < 16 * 2 ** 20, `${size} bytes`);
  await page.dispatchEvent('#canvas', 'drop', { dataTransfer: file });
  await page.waitForFunction(() => JSON.parse(Module.UTF8ToString(Module._gpuplan_ui_state())).import_message !== '', null, { timeout: 30000 });
  await waitFrames(page, 3);
  const message = JSON.parse(await readBack(page, 'gpuplan_ui_state')).import_message;
  assert.match(message, /^tokenizer\.json: .*A tokenizer\.json holds the vocabulary; drop the model's config\.json instead\.$/);
  assert.ok((await rectsOf(page))['import-banner'], 'the message is on the open panel');
  await page.screenshot({ path: join(artifacts, 'phone-dropped.png') });
  await tapWidget(page, 'tab-speed');
  assert.equal(JSON.parse(await readBack(page, 'gpuplan_ui_state')).tab, 'speed');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('A phone reading a blog post: a swipe over the embed scrolls the article; the embed still takes taps', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-blog-'));
  const html = readFileSync(join(process.env.GPUPLAN_SOURCE_DIR, 'tests/e2e/blog/index.html'), 'utf8');
  writeFileSync(join(dir, 'index.html'), html.replaceAll('CALCULATOR_URL', url));
  const blog = await startServer(dir, 0, '127.0.0.1', false);
  const ctx = await browser.newContext(phone);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(blog.url);
  let frame;
  for (let i = 0; i < 100 && !frame; ++i) {
    frame = page.frames().find((f) => f.url().startsWith(url));
    if (!frame) await page.waitForTimeout(100);
  }
  assert.ok(frame, 'the embed loaded');
  await frame.waitForFunction(() => window.Module?.calledRun && Module._gpuplan_frame_count() > 4, null, { timeout: 30000 });
  await page.waitForFunction(() => document.getElementById('calc').style.height !== '', null, { timeout: 30000 });
  // Bring the embed's top into view, then swipe up over it: the article moves.
  await page.evaluate(() => window.scrollTo(0, document.getElementById('calc').getBoundingClientRect().top + window.scrollY - 100));
  await page.waitForTimeout(200);
  const box = await page.locator('#calc').boundingBox();
  const before = await page.evaluate(() => window.scrollY);
  const cdp = await ctx.newCDPSession(page);
  await swipe(page, cdp, box.x + box.width / 2, Math.min(box.y + 400, 800), 0, -250, { steps: 10, ms: 16 });
  await page.waitForTimeout(500);
  const after = await page.evaluate(() => window.scrollY);
  assert.ok(after - before > 150, `the article scrolled ${after - before} px under a 250 px swipe over the embed`);
  // A tap inside the embed still reaches it: its Inputs header opens.
  await page.evaluate(() => window.scrollTo(0, document.getElementById('calc').getBoundingClientRect().top + window.scrollY - 100));
  await page.waitForTimeout(300);
  const inFrame = JSON.parse(await frame.evaluate(() => Module.UTF8ToString(Module._gpuplan_widget_rects())));
  const frameBox = await page.locator('#calc').boundingBox();
  const header = inFrame['embed-inputs'];
  assert.ok(header, 'the embed has its Inputs header');
  await page.touchscreen.tap(frameBox.x + 1 + (header.x0 + header.x1) / 2, frameBox.y + 1 + (header.y0 + header.y1) / 2);
  await waitFrames(frame, 3);
  const opened = JSON.parse(await frame.evaluate(() => Module.UTF8ToString(Module._gpuplan_widget_rects())));
  assert.ok(opened.context, 'one tap opened the embed\'s inputs');
  await page.screenshot({ path: join(artifacts, 'phone-blog.png') });
  assert.deepEqual(errors, []);
  await ctx.close();
  blog.server.close();
});
