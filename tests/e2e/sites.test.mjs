// The site bundle as a blog or documentation author deploys it: scripts/site_bundle.py's folder
// copied into a Hugo, Jekyll and MkDocs site at a sub-path (tools/gpuplan/), a post built by
// the real generator with the snippet from web/embed/, served as a static site; the reader's
// browser opens the post and the calculator in it gives what the CLI prints. Also the bundle on
// a host that sends .wasm with the wrong type (the page works and says what the host must send),
// and opened as a file (it runs where the browser lets it read local files, and says how to open
// it where not).
//   GPUPLAN_SITE        the built page (build/wasm/site)
//   GPUPLAN_CLI         the native gpuplan binary
//   GPUPLAN_SOURCE_DIR  the source tree (scripts/site_bundle.py, web/embed/)
//   GPUPLAN_ARTIFACTS   where screenshots go
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../scripts/static_server.mjs';
import { launchBrowser } from './harness.mjs';

const site = process.env.GPUPLAN_SITE;
const cli = process.env.GPUPLAN_CLI;
const src = process.env.GPUPLAN_SOURCE_DIR;
const artifacts = process.env.GPUPLAN_ARTIFACTS ?? mkdtempSync(join(tmpdir(), 'gpuplan-e2e-'));
assert.ok(site && cli && src, 'set GPUPLAN_SITE, GPUPLAN_CLI and GPUPLAN_SOURCE_DIR');
mkdirSync(artifacts, { recursive: true });

const work = mkdtempSync(join(tmpdir(), 'gpuplan-sites-'));
const state = 'v=1&model=llama-3.1-70b&weights=q4_k_m&gpu=rtx-4090&tp=2&engine=llama.cpp';
let bundle, browser;

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  assert.equal(r.error, undefined, `${cmd}: ${r.error} (scripts/setup.sh installs it)`);
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

function cliReport(s) {
  return JSON.parse(run(cli, ['fit', '--state', s, '--format', 'json']));
}

before(async () => {
  run('python3', [join(src, 'scripts/site_bundle.py'), site, join(work, 'bundle'), '--version', 'e2e']);
  bundle = join(work, 'bundle', 'gpuplan-site-e2e');
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

// Opens `postUrl`, finds the calculator's frame (from /tools/gpuplan/), and checks that it ran
// the snippet's scenario as the CLI does, that the bundle's hashed files came from the
// sub-path, and that the frame took its panel's height. Returns the page's screenshot.
async function readPost(name, postUrl, base) {
  const ctx = await browser.newContext({ viewport: { width: 900, height: 1100 }, colorScheme: 'light' });
  const page = await ctx.newPage();
  const errors = [], fetched = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
    fetched.push(new URL(r.url()).pathname);
  });
  await page.goto(postUrl);
  let frame;
  for (let i = 0; i < 100 && !frame; ++i) {
    frame = page.frames().find((f) => f.url().includes('/tools/gpuplan/'));
    if (!frame) await page.waitForTimeout(100);
  }
  assert.ok(frame, `${name}: no calculator frame among ${page.frames().map((f) => f.url()).join(' ')}`);
  assert.ok(frame.url().startsWith(base + 'tools/gpuplan/#embed=fit&'), `${name}: ${frame.url()}`);
  await frame.waitForFunction(() => window.Module?.calledRun && Module._gpuplan_frame_count() > 4, null, { timeout: 30000 });
  const ui = JSON.parse(await frame.evaluate(() => Module.UTF8ToString(Module._gpuplan_ui_state())));
  assert.equal(ui.embed, 'fit', name);
  const got = JSON.parse(await frame.evaluate(() => Module.UTF8ToString(Module._gpuplan_report_json())));
  assert.equal(got.scenario.model, 'llama-3.1-70b', name);
  assert.equal(got.scenario.gpu, 'rtx-4090', name);
  assert.deepEqual(got, cliReport(got.state), name);
  // The bundle's content-hashed files, fetched under the sub-path.
  const prefix = new URL(base).pathname + 'tools/gpuplan/';
  for (const re of [/^index\.[0-9a-f]{10}\.js$/, /^index\.[0-9a-f]{10}\.wasm$/])
    assert.ok(fetched.some((p) => p.startsWith(prefix) && re.test(p.slice(prefix.length))),
              `${name}: ${re} not fetched under ${prefix}: ${fetched.join(' ')}`);
  // The snippet's script sets the frame's height to what the panel reports.
  await page.waitForFunction(() => document.querySelector('iframe.gpuplan').style.height !== '', null, { timeout: 30000 });
  const h = await page.evaluate(() => parseFloat(document.querySelector('iframe.gpuplan').style.height));
  assert.ok(h > 300 && h !== 520, `${name}: the frame follows its content (${h} px)`);
  const shot = await page.screenshot({ path: join(artifacts, `site-${name}.png`), fullPage: true });
  assert.deepEqual(errors, [], name);
  await ctx.close();
  return shot;
}

// Serves the generated site `root` as a static host and reads the post at `path` (the site's
// base under the root: `base`).
async function servePost(name, root, path, base = '') {
  const { server, url } = await startServer(root, 0, '127.0.0.1', false);
  try {
    await readPost(name, url + path, url + base);
  } finally {
    server.close();
  }
}

test('Hugo: the shortcode from web/embed/hugo in a post, the bundle in static/tools/gpuplan/', async () => {
  const dir = join(work, 'hugo');
  mkdirSync(join(dir, 'content/posts'), { recursive: true });
  mkdirSync(join(dir, 'layouts/_default'), { recursive: true });
  cpSync(join(src, 'web/embed/hugo/layouts'), join(dir, 'layouts'), { recursive: true });
  cpSync(bundle, join(dir, 'static/tools/gpuplan'), { recursive: true });
  writeFileSync(join(dir, 'config.toml'), 'baseURL = "http://127.0.0.1/"\ntitle = "A blog"\n' +
    'disableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n');
  const layout = '<!doctype html><html><head><meta charset="utf-8"><title>{{ .Title }}</title></head>' +
    '<body style="max-width:46em;margin:2em auto">{{ .Content }}</body></html>\n';
  writeFileSync(join(dir, 'layouts/_default/single.html'), layout);
  writeFileSync(join(dir, 'layouts/_default/list.html'), layout);
  writeFileSync(join(dir, 'content/posts/two-4090s.md'), '---\ntitle: "70B on two 4090s?"\n---\n' +
    'A 70B model at 4-bit on two 24 GB cards: the calculator says.\n\n' +
    `{{< gpuplan panel="fit" state="${state}" >}}\n\nThe text goes on below it.\n`);
  run('hugo', ['--quiet', '-d', join(dir, 'public')], dir);
  await servePost('hugo', join(dir, 'public'), 'posts/two-4090s/');
});

test('Jekyll: the include from web/embed/jekyll in a post, under a baseurl, the bundle in tools/gpuplan/', async () => {
  const dir = join(work, 'jekyll');
  mkdirSync(join(dir, '_posts'), { recursive: true });
  mkdirSync(join(dir, '_layouts'), { recursive: true });
  cpSync(join(src, 'web/embed/jekyll/_includes'), join(dir, '_includes'), { recursive: true });
  cpSync(bundle, join(dir, 'tools/gpuplan'), { recursive: true });
  writeFileSync(join(dir, '_config.yml'), 'title: A blog\nbaseurl: "/blog"\n');
  writeFileSync(join(dir, '_layouts/post.html'), '<!doctype html><html><head><meta charset="utf-8"><title>{{ page.title }}</title>' +
    '</head><body style="max-width:46em;margin:2em auto">{{ content }}</body></html>\n');
  writeFileSync(join(dir, '_posts/2026-12-04-two-4090s.md'), '---\nlayout: post\ntitle: "70B on two 4090s?"\n---\n' +
    'A 70B model at 4-bit on two 24 GB cards: the calculator says.\n\n' +
    `{% include gpuplan.html panel="fit" state="${state}" %}\n\nThe text goes on below it.\n`);
  // The site under /blog/, as GitHub Pages serves a project site: the output goes one level down.
  const root = join(dir, 'served');
  run('jekyll', ['build', '--quiet', '-s', dir, '-d', join(root, 'blog')], dir);
  await servePost('jekyll', root, 'blog/2026/12/04/two-4090s.html', 'blog/');
});

test('MkDocs: the HTML block from web/embed/mkdocs in a page, the bundle in docs/tools/gpuplan/', async () => {
  const dir = join(work, 'mkdocs');
  mkdirSync(join(dir, 'docs'), { recursive: true });
  cpSync(bundle, join(dir, 'docs/tools/gpuplan'), { recursive: true });
  // (The theme's highlight.js comes from a CDN, which the test machine cannot reach: off.)
  writeFileSync(join(dir, 'mkdocs.yml'), 'site_name: Docs\ntheme:\n  name: mkdocs\n  highlightjs: false\n');
  writeFileSync(join(dir, 'docs/index.md'), '# Docs\n\nSee [the guide](guide.md).\n');
  const snippet = readFileSync(join(src, 'web/embed/mkdocs/gpuplan.md'), 'utf8')
    .replace(/#embed=fit&[^"]*"/, `#embed=fit&${state}"`);
  assert.match(snippet, /src="\.\.\/tools\/gpuplan\/#embed=fit&v=1&model=llama-3\.1-70b/);
  writeFileSync(join(dir, 'docs/guide.md'), '# Choosing a GPU\n\nA 70B model at 4-bit on two 24 GB cards.\n\n' +
    snippet + '\nThe text goes on below it.\n');
  run('mkdocs', ['build', '--quiet', '-d', join(dir, 'site')], dir);
  await servePost('mkdocs', join(dir, 'site'), 'guide/');
});

test('A host that sends .wasm as application/octet-stream: the page works, and says what the host must send', async () => {
  const { server, url } = await startServer(bundle, 0, '127.0.0.1', false, { '.wasm': 'application/octet-stream' });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url + '#' + state);
    await page.waitForFunction(() => window.Module?.calledRun && Module._gpuplan_frame_count() > 4, null, { timeout: 30000 });
    const got = JSON.parse(await page.evaluate(() => Module.UTF8ToString(Module._gpuplan_report_json())));
    assert.deepEqual(got, cliReport(got.state));
    const notices = JSON.parse(await page.evaluate(() => Module.UTF8ToString(Module._gpuplan_notices())));
    assert.ok(notices.some((n) => /without the type application\/wasm.*serve \.wasm as application\/wasm/.test(n)),
              JSON.stringify(notices));
    await page.screenshot({ path: join(artifacts, 'site-wrong-wasm-type.png') });
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    server.close();
  }
});

test('Opened as a file: the bundle runs where the browser may read local files, and says how to open it where not', async () => {
  const fileUrl = 'file://' + join(bundle, 'index.html') + '#' + state;
  // Chromium as it comes: a file page may not read the files beside it.
  {
    const page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
    await page.goto(fileUrl);
    await page.waitForFunction(() => document.getElementById('status').className === 'error', null, { timeout: 30000 });
    assert.match(await page.evaluate(() => document.getElementById('status').textContent),
                 /does not let a page opened as a file read the files beside it.*python3 -m http\.server/);
    await page.screenshot({ path: join(artifacts, 'site-file-blocked.png') });
    await page.close();
  }
  // With local file access allowed, the same file runs the calculator.
  const permissive = await launchBrowser(['--allow-file-access-from-files']);
  try {
    const page = await permissive.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(fileUrl);
    await page.waitForFunction(() => window.Module?.calledRun && Module._gpuplan_frame_count() > 4, null, { timeout: 30000 });
    const got = JSON.parse(await page.evaluate(() => Module.UTF8ToString(Module._gpuplan_report_json())));
    assert.deepEqual(got, cliReport(got.state));
    await page.screenshot({ path: join(artifacts, 'site-file.png') });
    assert.deepEqual(errors, []);
  } finally {
    await permissive.close();
  }
});

test('Before the calculator runs, its words follow the language it will speak: a click-to-load frame in Japanese', async () => {
  const { server, url } = await startServer(bundle, 0, '127.0.0.1', false);
  try {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await page.goto(url + '#embed=fit&lang=ja&facade=' + encodeURIComponent('メモリ適合: Llama 3.1 70B') + '&' + state);
    await page.waitForFunction(() => !document.getElementById('facade').hidden, null, { timeout: 30000 });
    assert.equal(await page.evaluate(() => document.querySelector('#facade button').textContent), '計算ツールを開く');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
    await page.close();
    // Without lang=, an English browser gets English.
    const en = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await en.goto(url + '#embed=fit&facade=Fit&' + state);
    await en.waitForFunction(() => !document.getElementById('facade').hidden, null, { timeout: 30000 });
    assert.equal(await en.evaluate(() => document.querySelector('#facade button').textContent), 'Open the calculator');
    await en.close();
  } finally {
    server.close();
  }
});
