// Golden tests: what the CLI prints for every command and format on a fixed set of scenarios
// (the presets, plus the cases that take other paths: a MIG slice, unified memory, offload, an
// unknown prefill, bad input), and what the page's export buttons copy for each panel. Each
// case's output is kept in tests/golden/expected/<case>.txt; a change to any of it fails here
// with the diff, so a refactor shows it changed nothing, and a fix shows exactly what it fixed.
//
//   GPUPLAN_CLI=build/native/native/gpuplan GPUPLAN_UI_DUMP=build/native/tests/golden-ui-dump \
//     node --test tests/golden/                        # check
//   GPUPLAN_GOLDEN_UPDATE=1 ... node --test tests/golden/  # rewrite expected/ (then review git diff)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const source = join(here, '..', '..');
const expectedDir = join(here, 'expected');
const bin = process.env.GPUPLAN_CLI;
const uiDump = process.env.GPUPLAN_UI_DUMP;
const update = process.env.GPUPLAN_GOLDEN_UPDATE === '1';
assert.ok(bin, 'set GPUPLAN_CLI to the gpuplan binary');

const presets = {
  'seed-70b-2x4090': 'v=1&model=llama-3.1-70b&weights=q4_k_m&kv=fp16&context=8192&prompt=1024&batch=1&gpu=rtx-4090&count=2&engine=llama.cpp',
  'llama3-8b-8xa100': 'v=1&model=llama-3-8b&gpu=a100-sxm-80gb&dp=8&zero=3&context=4096&tokens=100000000000',
  'r1-8xh200': 'v=1&model=deepseek-r1&weights=fp8&kv=fp8&context=32768&prompt=4096&batch=16&gpu=h200-sxm&count=8&engine=vllm',
  '8b-4090': 'v=1&model=llama-3.1-8b&weights=bf16&kv=fp16&context=8192&prompt=1024&batch=8&gpu=rtx-4090&engine=vllm',
  '70b-fp8-h100': 'v=1&model=llama-3.1-70b&weights=fp8&kv=fp8&context=8192&prompt=1024&batch=32&gpu=h100-sxm&count=2&engine=vllm',
  'qlora-70b-a6000': 'v=1&model=llama-3.1-70b&gpu=rtx-a6000&method=qlora&context=2048&recompute=full',
  'mig-1b': 'v=1&model=llama-3.2-1b&gpu=h100-sxm&mig=1g.10gb&batch=4',
  'm4max-70b': 'v=1&model=llama-3.1-70b&weights=q4_k_m&engine=llama.cpp&gpu=m4-max&context=4096',
  'offload-mixtral': 'v=1&model=mixtral-8x7b&weights=q4_k_m&engine=llama.cpp&gpu=rtx-4090&gpu-layers=20&context=4096',
  'pp-405b': 'v=1&model=llama-3.1-405b&weights=fp8&gpu=h100-sxm&count=8&pp=2&batch=8&ecc=on&used-gib=1.5',
  'm5max-unknown': 'v=1&model=llama-3.1-8b&gpu=m5-max&engine=llama.cpp&weights=q4_k_m',
  'train-lora': 'v=1&model=llama-3.1-8b&gpu=rtx-4090&method=lora&context=2048&lora-rank=32&micro-batch=2',
};

// Each case: a name and the CLI's arguments. Outputs that name a file or today's date are made
// the same on every machine (normalise below).
const cases = [];
const scenarioCommands = ['fit', 'speed', 'cost', 'train', 'roofline'];
const formats = ['table', 'json', 'csv', 'md'];
for (const [name, state] of Object.entries(presets)) {
  for (const cmd of scenarioCommands)
    for (const f of formats) cases.push([`${cmd}-${name}-${f}`, [cmd, '--state', state, '--format', f]]);
  for (const cmd of ['fit', 'speed', 'cost', 'train'])
    cases.push([`${cmd}-${name}-explain`, [cmd, '--state', state, '--explain']]);
}
for (const name of ['mig-1b', 'm4max-70b', 'pp-405b'])
  for (const f of formats) cases.push([`capacity-${name}-${f}`, ['capacity', '--state', presets[name], '--format', f]]);
for (const name of ['8b-4090', '70b-fp8-h100', 'r1-8xh200', 'mig-1b'])
  for (const f of name === '8b-4090' || name === 'mig-1b' ? formats : ['table', 'csv']) cases.push([`compare-${name}-${f}`, ['compare', '--state', presets[name], '--format', f]]);
cases.push(['compare-filters-table', ['compare', '--state', presets['70b-fp8-h100'], '--fits', '--vendor', 'NVIDIA',
  '--sort', 'usd_per_m_output', '--min-tps', '100', '--max-ttft', '2', '--max-upfront', '400000', '--max-watts', '6000']]);
cases.push(['compare-sort-gpu-csv', ['compare', '--state', presets['8b-4090'], '--sort', 'gpu', '--format', 'csv']]);
cases.push(['fit-flags', ['fit', '--model', 'qwen2.5-7b', '--gpu', 'l4', '--context', '32768', '--kv', 'fp8']]);
cases.push(['fit-preset', ['fit', '--preset', 'seed-70b-2x4090', '--batch', '4']]);
cases.push(['train-target-days', ['train', '--state', presets['llama3-8b-8xa100'], '--target-days', '30']]);
cases.push(['train-target-days-json', ['train', '--state', presets['llama3-8b-8xa100'], '--target-days', '3', '--format', 'json']]);
const probe = 'tests/reference/device/h200-2026-11-30-probe.json';
const cpuProbe = 'tests/golden/data/cpu-probe.json';
cases.push(['speed-measured', ['speed', '--model', 'llama-3.1-8b', '--gpu', 'h200-sxm', '--measured', probe, '--explain']]);
cases.push(['speed-measured-json', ['speed', '--model', 'llama-3.1-8b', '--gpu', 'h200-sxm', '--measured', probe, '--format', 'json']]);
cases.push(['roofline-decode-phase', ['roofline', '--state', presets['8b-4090'], '--phase', 'decode']]);
cases.push(['roofline-measured-cpu', ['roofline', '--model', 'llama-3.1-8b', '--gpu', 'h100-sxm', '--overlay', 'h200-sxm,mi300x',
  '--measured', probe, '--cpu', cpuProbe, '--svg', '@SVG@']]);
cases.push(['roofline-svg-json', ['roofline', '--state', presets['r1-8xh200'], '--phase', 'prefill', '--svg', '@SVG@', '--format', 'json']]);
for (const what of ['gpus', 'models', 'formats', 'interconnects', 'cloud', 'engines', 'presets'])
  for (const f of formats) cases.push([`catalog-${what}-${f}`, ['catalog', what, '--format', f]]);
cases.push(['catalog-list-engines', ['catalog', 'list', 'engines']]);
for (const f of ['table', 'json'])
  cases.push([`catalog-show-${f}`, ['catalog', 'show', 'h100-sxm', '--quoted', 'fp64=67', '--quoted', 'fp16=1979', '--format', f]]);
cases.push(['catalog-show-4090', ['catalog', 'show', 'rtx-4090', '--quoted', 'fp16=330']]);
cases.push(['catalog-validate', ['catalog', 'validate']]);
for (const f of ['table', 'json']) {
  cases.push([`import-hf-llava-${f}`, ['import-hf', 'tests/data/hf/llava-1.5-7b.config.json', '--format', f]]);
  cases.push([`import-hf-r1-${f}`, ['import-hf', 'tests/data/hf/deepseek-r1.config.json', '--id', 'R1-Mine', '--format', f]]);
}
for (const f of formats) {
  cases.push([`probe-compare-gpu-${f}`, ['probe', 'compare', probe, '--format', f]]);
  cases.push([`probe-compare-cpu-${f}`, ['probe', 'compare', cpuProbe, '--format', f]]);
}
// Bad input: the message and the exit code are part of the interface.
cases.push(['error-unknown-model', ['fit', '--model', 'llama-9']]);
cases.push(['error-bad-context', ['speed', '--context', '-5']]);
cases.push(['error-bad-state', ['fit', '--state', 'v=1&model=nope&batch=0']]);
cases.push(['error-preset-and-state', ['fit', '--preset', '8b-on-4090', '--state', 'v=1']]);
cases.push(['error-overlay', ['roofline', '--overlay', 'nope']]);
cases.push(['error-show', ['catalog', 'show', 'h100']]);
cases.push(['error-measured-other-gpu', ['speed', '--gpu', 'rtx-4090', '--measured', probe]]);

function normalise(text, svgPath) {
  let t = text.split(source + '/').join('<src>/').split(source).join('<src>');
  if (svgPath) t = t.split(svgPath).join('<svg>');
  // The commit the binary was built from changes with every commit (JSON, and the Markdown line).
  t = t.replace(/"gpuplan_commit": "[^"]*"/g, '"gpuplan_commit": "<commit>"')
    .replace(/^(\*?gpuplan \d+\.\d+\.\d+) \([0-9A-Za-z._+-]+\) · /gm, '$1 (<commit>) · ');
  // import-hf --format json records when the file was read
  return t.replace(/"read": "\d{4}-\d{2}-\d{2}"/g, '"read": "<today>"');
}

function runCase(args) {
  const tmp = mkdtempSync(join(tmpdir(), 'gpuplan-golden-'));
  const svg = join(tmp, 'chart.svg');
  const argv = args.map((a) => (a === '@SVG@' ? svg : a));
  const r = spawnSync(bin, argv, { encoding: 'utf8', cwd: source, maxBuffer: 64 << 20 });
  let text = `$ gpuplan ${args.map((a) => (/^[\w@.,:/=+-]+$/.test(a) ? a : `'${a}'`)).join(' ')}\n` +
    `exit ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
  if (existsSync(svg)) text += `--- svg\n${readFileSync(svg, 'utf8')}\n`;
  rmSync(tmp, { recursive: true, force: true });
  return normalise(text, svg);
}

function check(name, actual) {
  const file = join(expectedDir, `${name}.txt`);
  if (update) {
    mkdirSync(expectedDir, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  assert.ok(existsSync(file), `${file} is missing: run with GPUPLAN_GOLDEN_UPDATE=1 and review the diff`);
  const expected = readFileSync(file, 'utf8');
  if (actual === expected) return;
  const a = actual.split('\n'), e = expected.split('\n');
  let i = 0;
  while (i < a.length && i < e.length && a[i] === e[i]) ++i;
  assert.fail(`${name}: output changed at line ${i + 1}\n  expected: ${e[i]}\n  actual:   ${a[i]}\n` +
    `(GPUPLAN_GOLDEN_UPDATE=1 rewrites tests/golden/expected; review the diff before committing)`);
}

const seen = new Set();
test('CLI: every command and format on the fixed scenarios', () => {
  const failures = [];
  for (const [name, args] of cases) {
    assert.ok(!seen.has(name), `duplicate case ${name}`);
    seen.add(name);
    try { check(name, runCase(args)); } catch (e) { failures.push(e.message); }
  }
  assert.deepEqual(failures, []);
});

// The page's export buttons (link, embed, Markdown, JSON, CLI command) and its result JSON, for
// each panel, through the page's own code (golden-ui-dump links the UI library; no window).
test('page: what each panel exports', { skip: !uiDump && 'GPUPLAN_UI_DUMP not set' }, () => {
  const failures = [];
  for (const name of ['seed-70b-2x4090', '8b-4090', 'llama3-8b-8xa100', 'mig-1b', 'm5max-unknown']) {
    const state = presets[name];
    const r = spawnSync(uiDump, [state], { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.equal(r.status, 0, r.stderr);
    const caseName = `page-${name}`;
    seen.add(caseName);
    try { check(caseName, normalise(r.stdout)); } catch (e) { failures.push(e.message); }
  }
  assert.deepEqual(failures, []);
});

test('no stale expected files', { skip: update && 'updating' }, () => {
  if (!existsSync(expectedDir)) return;
  const stale = readdirSync(expectedDir).filter((f) => f.endsWith('.txt') && !seen.has(f.slice(0, -4)));
  if (!uiDump) return;  // page cases were not listed
  assert.deepEqual(stale, [], 'expected files no case writes: delete them');
});
