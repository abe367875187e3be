// CLI tests through the real binary: output formats, the --state door, and bad input that
// must give a clear message on stderr and exit code 2. GPUPLAN_CLI points at the binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = process.env.GPUPLAN_CLI;
assert.ok(bin, 'set GPUPLAN_CLI to the gpuplan binary');

function run(...args) {
  const r = spawnSync(bin, args, { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function fitJson(...args) {
  const r = run('fit', ...args, '--format', 'json');
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, '');
  return JSON.parse(r.out);
}

test('fit --format json: breakdown sums, GQA-aware KV, verdict', () => {
  const j = fitJson('--model', 'llama-3.1-8b', '--gpu', 'rtx-4090');
  assert.equal(j.schema, 'gpuplan.fit/1');
  const terms = Object.fromEntries(j.per_gpu.terms.map((t) => [t.key, t.bytes]));
  assert.equal(terms.weights, 8030261248 * 2);
  assert.equal(terms.kv_cache, 2 * 32 * 8 * 128 * 2 * 8192);
  assert.equal(terms.overhead, 2 ** 30);
  // vLLM's profiling peak: `vllm serve` profiles 2,048 batched tokens and 256 sequences below 70 GiB
  assert.ok(terms.activations > 0.4 * 2 ** 30 && terms.activations < 0.6 * 2 ** 30);
  // vLLM >= 0.21 also counts its CUDA graphs before the KV cache (32 layers x 26 MiB)
  assert.equal(terms.cuda_graphs, 32 * 26 * 2 ** 20);
  assert.equal(j.per_gpu.total_bytes, terms.weights + terms.kv_cache + terms.activations + terms.overhead + terms.cuda_graphs);
  // nvidia-smi's 24,564 MiB less what the driver keeps (CUDA's total: PyTorch's 23.64 GiB = 24,207 MiB).
  assert.equal(j.per_gpu.device.total_bytes, 24564 * 2 ** 20);
  assert.equal(j.per_gpu.device.steps[0].key, 'driver_reserve');
  assert.equal(j.per_gpu.capacity_bytes, 24207 * 2 ** 20);
  assert.equal(j.usable_bytes, 24207 * 2 ** 20 * 0.92);  // vLLM gpu_memory_utilization of CUDA's total
  assert.equal(j.fits, true);
  assert.equal(j.kv_bytes_per_token, 131072);
});

test('the seeds\' example: 70B at 4-bit on 2x RTX 4090 fits one 8k sequence, not four', () => {
  const one = fitJson('--model', 'llama-3.1-70b', '--weights', 'q4_k_m', '--gpu', 'rtx-4090', '--tp', '2',
    '--engine', 'llama.cpp');
  assert.equal(one.fits, true);
  assert.equal(one.kv_heads_per_gpu, 8);  // llama.cpp's layer split: each GPU holds whole layers, all 8 KV heads
  const four = fitJson('--model', 'llama-3.1-70b', '--weights', 'q4_k_m', '--gpu', 'rtx-4090', '--count', '2',
    '--batch', '4', '--engine', 'llama.cpp');
  assert.equal(four.fits, false);
  assert.ok(four.per_gpu.headroom_bytes < 0);
  assert.ok(four.max_batch >= 1 && four.max_batch < 4);
});

test('--state (a page link) gives the same report as the flags, and flags override it', () => {
  const byFlags = fitJson('--model', 'qwen2.5-7b', '--gpu', 'l4', '--context', '32768', '--kv', 'fp8');
  const byState = fitJson('--state', '#' + byFlags.state);
  assert.deepEqual(byState, byFlags);
  const overridden = fitJson('--state', byFlags.state, '--count', '2');
  assert.equal(overridden.scenario.tp, 2);
  assert.equal(overridden.scenario.model, 'qwen2.5-7b');
});

test('table output shows units, the verdict and the page link', () => {
  const r = run('fit', '--model', 'llama-3.1-70b', '--gpu', 'rtx-4090');
  assert.equal(r.code, 0);
  assert.match(r.out, /DOES NOT FIT/);
  assert.match(r.out, /GiB\s+GB/);
  assert.match(r.out, /page state: #v=1&model=llama-3\.1-70b/);
  assert.doesNotMatch(r.out, /\b(nan|inf|infinity)\b/i);
});

test('--lang ja: the table and the Markdown in Japanese, aligned by display width; JSON keys and numbers unchanged', () => {
  const ja = run('fit', '--model', 'llama-3.1-70b', '--gpu', 'rtx-4090', '--lang', 'ja');
  assert.equal(ja.code, 0, ja.err);
  assert.match(ja.out, /収まらない: 使用可能な/);
  assert.match(ja.out, /ページの状態: #v=1&model=llama-3\.1-70b/);
  // Columns line up in a terminal: a wide character takes two columns, so every row's "GiB"
  // figure ends in the same column as the header's.
  const lines = ja.out.split('\n').filter((l) => /^\s{2}\S.*\s\d+\.\d\d\s+\d+\.\d\d\s/.test(l));
  const width = (s) => [...s].reduce((w, c) => w + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(c) ? 2 : 1), 0);
  const ends = new Set(lines.map((l) => width(l.match(/^(.*?\d+\.\d\d)\s/)[1])));
  assert.ok(lines.length >= 5 && ends.size === 1, `GiB column ends at ${[...ends].join(', ')}`);
  const md = run('cost', '--model', 'llama-3.1-8b', '--gpu', 'h200-sxm', '--currency', 'jpy', '--lang', 'ja', '--format', 'md');
  assert.match(md.out, /万円/);
  const en = JSON.parse(run('fit', '--model', 'llama-3.1-70b', '--gpu', 'rtx-4090', '--format', 'json').out);
  const jaJson = JSON.parse(run('fit', '--model', 'llama-3.1-70b', '--gpu', 'rtx-4090', '--format', 'json', '--lang', 'ja').out);
  assert.deepEqual(Object.keys(jaJson), Object.keys(en));
  assert.equal(jaJson.usable_bytes, en.usable_bytes);
  assert.ok(en.usable_bytes > 0);
  assert.deepEqual(jaJson.per_gpu.terms.map((t) => t.key), en.per_gpu.terms.map((t) => t.key));
  const bad = run('fit', '--lang', 'fr');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--lang/);
});

test('bad input: clear message naming the flag, exit 2, nothing on stdout', () => {
  const cases = [
    [['fit', '--model', 'nope'], /--model: unknown model 'nope' \(known: .*llama-3\.1-8b/],
    [['fit', '--gpu', 'h1000'], /--gpu: unknown GPU 'h1000'/],
    [['fit', '--context', '-5'], /--context: '-5' must be a whole number from 1 to 16777216/],
    [['fit', '--batch', '1e9'], /--batch: '1e9' must be a whole number/],
    [['fit', '--tp', '0'], /--tp: '0' must be a whole number from 1/],
    [['fit', '--count', '0'], /--tp: '0' must be a whole number from 1/],  // the old name of --tp
    [['fit', '--overhead-gib', 'nan'], /--overhead-gib: 'nan' must be a number from 0 to 1024/],
    [['fit', '--weights', 'q3'], /--weights: unknown weight format 'q3'/],
    [['fit', '--format', 'xml'], /--format/],
    [['fit', '--bogus'], /--bogus/],
    [['fit', '--state', 'v=1&model=nope&gpu=l4'], /--state: model: unknown model 'nope'/],
    [['catalog', 'chips'], /chips/],
    [['speed', '--engine', 'ollama'], /--engine: unknown engine 'ollama' \(known: .*llama\.cpp/],
    [['speed', '--mem-util', '1.5'], /--mem-util: '1\.5' must be a number from 0 to 1/],
    [['speed', '--gpu-layers', '-3'], /--gpu-layers: '-3' must be a whole number from 0 to 100000, or all/],
    [['compare', '--sort', 'fastest'], /--sort/],
    [['compare', '--max-watts', '-5'], /--max-watts: '-5' must be a number from 0 to 1e12/],
    [['train', '--optimizer', 'adam'], /--optimizer: 'adam' must be one of adamw, adamw-8bit, adafactor, sgd, lion/],
    [['train', '--zero', '4'], /--zero: '4' must be a whole number from 0 to 3/],
    [['train', '--mfu', '1.5'], /--mfu: '1\.5' must be a number from 0 to 1/],
    [['calibrate', '--reference', '/nonexistent.json'], /--reference: '\/nonexistent\.json' does not exist/],
    [[], /subcommand/i],
  ];
  for (const [args, pattern] of cases) {
    const r = run(...args);
    assert.equal(r.code, 2, `${args.join(' ')} -> exit ${r.code}`);
    assert.match(r.err, pattern, args.join(' '));
    assert.equal(r.out, '', args.join(' '));
  }
});

test('--catalog adds entries; a malformed file is named with its field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-cli-'));
  const good = join(dir, 'good.json');
  writeFileSync(good, JSON.stringify({
    schema: 1,
    gpus: [{
      id: 'my-gpu', name: 'My GPU', vendor: 'Me', memory: { value: 48, unit: 'GiB' },
      sources: [{ fields: ['memory'], title: 'my measurement', url: 'https://example.invalid', read: '2026-11-29' }],
    }],
  }));
  const j = fitJson('--catalog', good, '--gpu', 'my-gpu');
  assert.equal(j.per_gpu.capacity_bytes, 48 * 2 ** 30);

  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"schema": 1, "gpus": [{"id": "x", "name": "X", "vendor": "V", "memory": {"value": -1, "unit": "GB"}, "sources": []}]}');
  const r = run('--catalog', bad, 'fit');
  assert.equal(r.code, 2);
  assert.match(r.err, /bad\.json: gpus\[0\] \(id 'x'\): memory: field 'value' must be > 0/);

  writeFileSync(bad, '{not json');
  assert.match(run('--catalog', bad, 'fit').err, /bad\.json: not valid JSON at line 1, column 2: expected a key in double quotes, found 'n'\n    \{not json\n     \^/);
  assert.match(run('--catalog', join(dir, 'missing.json'), 'fit').err, /'.*missing\.json' does not exist/);
  assert.match(run('--catalog', dir, 'fit').err, /is a directory, not a file/);

  // --catalog repeated has a total: files and bytes, checked before and while reading.
  const empty = join(dir, 'empty.json');
  writeFileSync(empty, '{"schema": 1}');
  const many = run(...Array(257).fill(['--catalog', empty]).flat(), 'fit');
  assert.equal(many.code, 2);
  assert.match(many.err, /--catalog: 257 catalog files: above 256, the largest number of catalog files loaded together/);
  const padded = join(dir, 'padded.json');
  writeFileSync(padded, '{"schema": 1}' + ' '.repeat(15 << 20));
  const heavy = run(...Array(5).fill(['--catalog', padded]).flat(), 'fit');
  assert.equal(heavy.code, 2);
  assert.match(heavy.err, /padded\.json: 78,643,265 bytes of catalog files: above 67,108,864.*; nothing was loaded/);
});

test('typos: a misspelt command, flag, catalog list or field names the nearest, and NaN is refused', () => {
  const cases = [
    [['fitt'], /'fitt' is not a command: did you mean 'fit'\? \(the commands: fit, speed,/],
    [['fit', '--modle', 'x'], /'fit' has no flag '--modle': did you mean '--model'\?/],
    [['compare', '--max-upfrnt=3'], /'compare' has no flag '--max-upfrnt': did you mean '--max-upfront'\?/],
    [['train', '--target-days', 'nan'], /--target-days: 'nan' must be a number from 0 to 36500/],
    [['train', '--target-days', 'inf'], /--target-days: 'inf' must be a number/],
    // Every numeric flag, the scenario's and the views' alike: NaN, infinity and counts past their limit.
    [['fit', '--mem-util', 'nan'], /--mem-util: 'nan' must be a number from 0 to 1/],
    [['serve', '--rate', 'inf'], /--rate: 'inf' must be a number from 0 to 1e6/],
    [['compare', '--min-tps', 'nan'], /--min-tps: 'nan' must be a number/],
    [['plan', '--max-watts', '-inf'], /--max-watts: '-inf' must be a number/],
    [['fit', '--tp', '99999999'], /--tp: '99999999' must be a whole number from 1 to 4096/],
    [['train', '--dp', '1e9'], /--dp: '1e9' must be a whole number from 1 to 65536/],
    [['serve', '--clients', '99999999999'], /--clients: '99999999999' must be a whole number from 1 to 100,000/],
  ];
  for (const [args, message] of cases) {
    const r = run(...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.err, message);
  }
  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-typo-'));
  const file = join(dir, 'typo.json');
  writeFileSync(file, '{"schema": 1, "gpu": []}');
  let r = run('catalog', 'validate', file);
  assert.equal(r.code, 2);
  assert.match(r.err, /'gpu' is not a list of a catalog file: did you mean 'gpus'\?/);
  // A misspelt field loads with a warning; --strict makes it an error.
  writeFileSync(file, JSON.stringify({ schema: 1, models: [{ id: 'tiny', name: 'Tiny', layers: 2, hidden: 64, heads: 4,
    kv_heads: 4, head_dim: 16, vocab: 100, contxt: 512, sources: [{ title: 'T', url: 'https://example.invalid', read: '2026-12-03',
      fields: ['layers', 'hidden', 'heads', 'kv_heads', 'head_dim', 'vocab'] }] }] }));
  r = run('catalog', 'validate', file);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /models\[0\] \(id 'tiny'\): field 'contxt' is not a field of this entry \(ignored\)/);
  r = run('catalog', 'validate', '--strict', file);
  assert.equal(r.code, 2);
  assert.match(r.err, /catalog validate --strict: 1 warning \(above\)/);
});

test('catalog lists ids in table and JSON', () => {
  const r = run('catalog', 'gpus');
  assert.equal(r.code, 0);
  assert.match(r.out, /h100-sxm/);
  // A list is an object with its schema and the versions it was made with, the rows inside.
  const models = JSON.parse(run('catalog', 'models', '--format', 'json').out);
  assert.equal(models.schema, 'gpuplan.catalog-models/1');
  assert.match(models.gpuplan_version, /^\d+\.\d+\.\d+/);
  assert.match(models.catalog_version, /^\d{4}\.\d{2}/);
  assert.ok(models.rows.some((m) => m.id === 'llama-3.1-70b' && m.kv_heads === 8));
  for (const kind of ['gpus', 'formats', 'interconnects', 'cloud', 'engines', 'presets']) {
    const list = JSON.parse(run('catalog', 'list', kind, '--format', 'json').out);
    assert.equal(list.schema, `gpuplan.catalog-${kind}/1`);
    assert.ok(list.rows.length > 0, kind);
  }
});

test('contradictions: an error refuses with exit 2, a warning prints beside the numbers, catalog checks lists them', () => {
  const refused = run('train', '--offload', '2', '--zero', '0');
  assert.equal(refused.code, 2);
  assert.equal(refused.out, '');
  assert.match(refused.err, /offload: offload 2 moves parameters to the CPU, which DeepSpeed does only with ZeRO-3/);
  const warned = run('fit', '--kv', 'fp8', '--gpu', 'a100-sxm-80gb', '--format', 'json');
  assert.equal(warned.code, 0, warned.err);
  assert.ok(JSON.parse(warned.out).warnings.some((w) => w.includes('an FP8 KV cache saves memory')));
  assert.ok(!fitJson('--kv', 'fp8', '--gpu', 'h100-sxm').warnings.some((w) => w.includes('FP8 KV cache')));
  const checks = run('catalog', 'checks', '--format', 'json');
  assert.equal(checks.code, 0, checks.err);
  const { schema, rows } = JSON.parse(checks.out);
  assert.equal(schema, 'gpuplan.catalog-checks/1');
  assert.ok(rows.some((r) => r.id === 'offload-param-zero' && r.severity === 'error' && r.field === 'offload'));
  assert.ok(rows.some((r) => r.id === 'fp8-kv-no-fp8' && r.severity === 'warning'));
});

test('catalog list in csv and md, and validate reports every problem of a file', () => {
  const csv = run('catalog', 'list', 'gpus', '--format', 'csv');
  assert.equal(csv.code, 0, csv.err);
  const lines = csv.out.trim().split('\n');
  assert.equal(lines[0], 'id,name,vendor,year,memory_quoted,memory_bytes,bandwidth_gb_s,bf16_dense_tflops,fp8_dense_tflops,tdp_w');
  assert.ok(lines.length > 60, `${lines.length - 1} GPUs`);
  assert.ok(lines.some((l) => l.startsWith('h100-sxm,')));
  const md = run('catalog', 'models', '--format', 'md').out.split('\n');
  assert.match(md[0], /^\| id \| name \| params \|/);
  assert.match(md[1], /^\| --- \| --- \| ---: \|/);

  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-validate-'));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ schema: 1, gpus: [
    { id: 'a', name: 'A', vendor: 'V', memory: { value: 80, unit: 'GB', type: 'HBM3' }, bandwidth: { value: 3.35, unit: 'GB/s' },
      sources: [{ fields: ['memory', 'bandwidth'], title: 't', url: 'https://example.invalid', read: '2026-11-29' }] },
    { id: 'b', vendor: 'V', memory: { value: 24, unit: 'GB' }, sources: [] }] }));
  const v = run('catalog', 'validate', bad);
  assert.equal(v.code, 2);
  const errs = v.err.trim().split('\n');
  assert.ok(errs.length >= 3, v.err);
  assert.ok(errs.every((l) => l.startsWith('gpuplan: error: catalog validate: ')), v.err);
  assert.match(v.err, /gpus\[0\] \(id 'a'\): field 'bandwidth' 3 GB\/s is implausible for HBM3/);
  assert.match(v.err, /gpus\[1\] \(id 'b'\): field 'name' is missing/);
  assert.match(v.err, /gpus\[1\] \(id 'b'\): field 'sources' must name at least one source/);

  const good = join(dir, 'good.json');
  writeFileSync(good, run('import-hf', join(process.env.GPUPLAN_SOURCE_DIR, 'tests/data/hf/phi-4.config.json'), '--id', 'my-phi', '--format', 'json').out);
  const ok = JSON.parse(run('catalog', 'validate', good, '--format', 'json').out).rows;
  assert.deepEqual(ok.find((r) => r.kind === 'models'), { kind: 'models', entries: 60, added: 1 });

  // Suspicious but not wrong: a MiB figure typed as MB loads, and validate says why (exit 0).
  const mb = join(dir, 'mb.json');
  writeFileSync(mb, JSON.stringify({ schema: 1, gpus: [
    { id: 'c', name: 'C', vendor: 'V', memory: { value: 11264, unit: 'MB', type: 'GDDR6' },
      sources: [{ fields: ['memory'], title: 't', url: 'https://example.invalid', read: '2026-12-01' }] }] }));
  const w = run('catalog', 'validate', mb);
  assert.equal(w.code, 0, w.err);
  assert.match(w.err, /gpuplan: warning: .*gpus\[0\] \(id 'c'\): field 'memory' 11264 MB of GDDR6: a multiple of 256, so the vendor means MiB/);
  // The built-in catalog itself has nothing to warn about.
  const builtin = run('catalog', 'validate');
  assert.equal(builtin.code, 0);
  assert.equal(builtin.err, '');
});

test('catalog show --quoted says what a guide\'s figure is: dense, sparse or FP16-accumulate', () => {
  const r = run('catalog', 'show', 'rtx-4090', '--quoted', 'fp16=330', '--quoted', 'fp32=83');
  assert.equal(r.code, 0, r.err);
  const line = r.out.split('\n').find((l) => l.includes('Quoted fp16=330'));
  assert.match(line, /dense fp16 with FP16 accumulate \(330\.3\)/);
  assert.match(line, /sparse: 2 × dense fp16 with FP32 accumulate \(2 × 165\.2\)/);
  assert.match(r.out, /Quoted fp32=83 TFLOP\/s = dense fp32 \(non-tensor\) \(82\.6\)/);
  // Sparsity never applies to FP64: an H100's 67 is its FP64 tensor-core rate, dense.
  assert.match(run('catalog', 'show', 'h100-sxm', '--quoted', 'fp64=67').out, /= dense fp64 tensor-core \(66\.9\)$/m);
  // An A100's "FP16 19.5" is no FP16 rate at all: it is the FP32 (non-tensor) figure.
  assert.match(run('catalog', 'show', 'a100-sxm-80gb', '--quoted', 'fp16=19.5').out,
               /not a fp16 rate of this GPU: dense fp32 \(non-tensor\) \(19\.5\)/);
  // Blackwell Ultra's FP4 sparse figure is as quoted (20 PF), not twice the dense 15 PF.
  assert.match(run('catalog', 'show', 'gb300', '--quoted', 'fp4=20000').out, /sparse: fp4 as quoted \(20000; not 2 × dense 15000\)/);
  assert.match(run('catalog', 'show', 'gb300', '--quoted', 'fp4=30000').out, /no catalog figure within 2%/);
  // Blackwell's FP4 headline is 2:4 sparse: 18 PF on a B200 is 2 × its dense 9 PF.
  assert.match(run('catalog', 'show', 'b200', '--quoted', 'fp4=18000').out, /= sparse: 2 × dense fp4 \(2 × 9000\)$/m);
  const b200 = JSON.parse(run('catalog', 'show', 'b200', '--quoted', 'fp16=4500', '--format', 'json').out);
  assert.deepEqual(b200.quoted['fp16=4500'], ['sparse: 2 × dense fp16 (2 × 2250)']);
  assert.match(run('catalog', 'show', 'h100-sxm', '--quoted', 'fp16=3').out, /no catalog figure within 2%/);
  const bad = run('catalog', 'show', 'h100-sxm', '--quoted', 'fp16');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--quoted: 'fp16' must be PRECISION=TFLOPS/);
});

test('catalog show prints every field with its numbered sources', () => {
  const r = run('catalog', 'show', 'h100-sxm');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Memory \(as quoted\)\s+80 GB HBM3 = 74\.51 GiB = 80\.00 GB \[\d/);
  assert.match(r.out, /Dense bf16\s+989\.4 TFLOP\/s/);
  assert.match(r.out, /Sources:\n\s+\[1\] .* — https?:\/\//);
  const j = JSON.parse(run('catalog', 'show', 'h100-sxm', '--format', 'json').out);
  assert.ok(j.rows.every((row) => Array.isArray(row.sources)));
  assert.ok(j.sources.length >= 1);
  const bad = run('catalog', 'show', 'h1000');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /unknown GPU 'h1000'/);
  assert.match(run('catalog', 'show').err, /give one GPU id/);
});

test('import-hf: reads a config, and its JSON is a catalog file the other commands accept', () => {
  const src = process.env.GPUPLAN_SOURCE_DIR;
  const cfg = join(src, 'tests/data/hf/mixtral-8x7b.config.json');
  const r = run('import-hf', cfg, '--id', 'my-mixtral');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /8 experts, top-2/);
  assert.match(r.out, /parameters\s+46\.70 B/);
  assert.match(r.out, /active per token\s+12\.88 B/);

  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-import-'));
  const file = join(dir, 'mine.json');
  writeFileSync(file, run('import-hf', cfg, '--id', 'my-mixtral', '--name', 'My Mixtral', '--format', 'json').out);
  const j = fitJson('--catalog', file, '--model', 'my-mixtral', '--gpu', 'h100-sxm', '--count', '2');
  assert.equal(j.model.name, 'My Mixtral');
  assert.equal(j.per_gpu.terms[0].bytes, 46702792704 * 2 / 2);

  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"model_type": "llama", "hidden_size": 4096}');
  const e = run('import-hf', bad);
  assert.equal(e.code, 2);
  assert.match(e.err, /bad\.json: key 'num_hidden_layers' is missing/);
  assert.match(run('import-hf', join(dir, 'nope.json')).err, /nope\.json. does not exist/);
  // A hybrid with linear attention: imported, its state counted, usable in fit and speed.
  const next = run('import-hf', join(src, 'tests/data/hf/qwen3-next-80b-a3b.config.json'));
  assert.equal(next.code, 0, next.err);
  assert.match(next.out, /12 attention \+ 36 linear-attention \(Gated DeltaNet\) layers/);
  assert.match(next.out, /parameters\s+79\.67 B/);
  const nextFile = join(dir, 'next.json');
  writeFileSync(nextFile, run('import-hf', join(src, 'tests/data/hf/qwen3-next-80b-a3b.config.json'), '--id', 'next',
    '--format', 'json').out);
  const sp = JSON.parse(run('--catalog', nextFile, 'speed', '--model', 'next', '--gpu', 'h200-sxm', '--format', 'json').out);
  assert.ok(sp.tokens_per_s_user > 0);
});

test('--help prints the defaults from the Scenario struct', () => {
  const r = run('fit', '--help');
  assert.equal(r.code, 0);
  assert.match(r.out, /--context.*8192/);
  assert.match(r.out, /--gpu.*rtx-4090/);
});

test('speed: json and table carry the same numbers, with the band and the work shown', () => {
  const args = ['speed', '--model', 'llama-3.1-8b', '--weights', 'q4_k_m', '--engine', 'llama.cpp', '--gpu', 'rtx-4090',
    '--prompt', '512', '--context', '1024'];
  const r = run(...args, '--format', 'json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.schema, 'gpuplan.speed/1');
  assert.equal(j.decode.bound, 'memory');
  assert.ok(j.tokens_per_s_user > 50 && j.tokens_per_s_user < 400, String(j.tokens_per_s_user));
  assert.ok(j.decode_band.cases >= 20 && j.decode_band.lo < 1 && j.decode_band.hi > 1);
  assert.ok(j.decode.terms.every((t) => t.formula.length > 0 && Number.isFinite(t.seconds)));
  const t = run(...args, '--explain');
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, new RegExp(`decode tokens/s per user\\s+${j.tokens_per_s_user.toFixed(1)}\\s+tokens/s`));
  assert.match(t.out, /Weights read .* GB per GPU \/ \(1008 GB\/s × 0\.\d\d attainable × [01]\.\d\d\)/);
  assert.match(t.out, /metric\s+value\s+unit\s+band low\s+band high/);
  assert.doesNotMatch(t.out, /\b(nan|inf|infinity)\b/i);
  const md = run(...args, '--format', 'md');
  assert.match(md.out, /^\| metric \| value \| unit \| band low \| band high \|/m);
});

test('compare: the whole catalog, sortable, every format; csv rows match json', () => {
  const base = ['compare', '--model', 'llama-3.1-70b', '--weights', 'fp8'];
  const j = JSON.parse(run(...base, '--format', 'json').out);
  assert.equal(j.schema, 'gpuplan.compare/1');
  assert.ok(j.rows.length >= 60);
  const fitting = j.rows.filter((r) => r.fits);
  for (let i = 1; i < fitting.length; ++i)
    if (fitting[i].tokens_per_s_total > 0) assert.ok(fitting[i - 1].tokens_per_s_total >= fitting[i].tokens_per_s_total);
  // 67.7 GiB of FP8 weights (embeddings and LM head stay BF16) leave one H100 short of 8k
  // tokens of KV cache under vLLM's 0.92 cap: two.
  assert.equal(j.rows.find((r) => r.gpu === 'h100-sxm').gpus, 2);
  const csv = run(...base, '--format', 'csv', '--sort', 'watts', '--fits').out.trim().split('\n');
  assert.equal(csv[0].split(',')[0], 'gpu');
  assert.equal(csv.length - 1, fitting.length);
  const budget = JSON.parse(run(...base, '--format', 'json', '--fits', '--max-upfront', '20000', '--max-watts', '3000',
    '--vendor', 'nvidia').out).rows;
  assert.ok(budget.length >= 2, String(budget.length));
  assert.ok(budget.every((r) => r.upfront_usd > 0 && r.upfront_usd <= 20000 && r.watts <= 3000 && r.vendor === 'NVIDIA'));
  const byWatts = JSON.parse(run(...base, '--format', 'json', '--sort', 'watts', '--fits').out).rows;
  assert.equal(byWatts.length, fitting.length);
  const watts = byWatts.map((r) => r.watts).filter((w) => w > 0);
  for (let i = 1; i < watts.length; ++i) assert.ok(watts[i - 1] <= watts[i]);
});

test('calibrate: the reference set runs through the real binary', () => {
  const r = run('calibrate', '--reference', join(process.env.GPUPLAN_SOURCE_DIR, "tests/reference/inference_measurements.json"));
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^\s*memory: \d+ cases, median error [\d.]+%/m);
  assert.match(r.out, /^\s*speed: \d+ cases, median error [\d.]+%/m);
});

test('probe: without CUDA probes in the build, one clear line and exit 3; a result file set against the catalog', () => {
  const r = run('probe', 'gpu');
  assert.equal(r.code, 3);
  assert.equal(r.out, '');
  assert.match(r.err, /^gpuplan: probe gpu: no CUDA probes in this build .*\n$/);
  const file = join(process.env.GPUPLAN_SOURCE_DIR, 'tests/reference/device/h200-2026-11-30-probe.json');
  const c = run('probe', 'compare', file, '--format', 'json');
  assert.equal(c.code, 0, c.err);
  const rows = JSON.parse(c.out);
  const read = rows.find((x) => x.metric === 'hbm_read');
  assert.equal(read.datasheet, 4.8e12);                 // H200 SXM: 4.8 TB/s
  assert.ok(read.ratio > 0.9 && read.ratio < 1);
  const bf16 = rows.find((x) => x.metric === 'gemm_bf16');
  assert.ok(bf16.ratio > 0.7 && bf16.ratio < 1, String(bf16.ratio));  // of the dense 989 TFLOP/s
  // Estimates with the measured ceilings: faster than with the engine's fitted efficiencies.
  const base = ['speed', '--model', 'llama-3.1-8b', '--gpu', 'h200-sxm', '--format', 'json'];
  const fitted = JSON.parse(run(...base).out);
  const measured = JSON.parse(run(...base, '--measured', file).out);
  // The probe's read bandwidth is this GPU's attainable ceiling; the engine's efficiency stays.
  assert.ok(Math.abs(measured.memory_ceiling.fraction - read.ratio) < 1e-9);
  assert.equal(measured.eta_bw, fitted.eta_bw);
  assert.notEqual(measured.tokens_per_s_user, fitted.tokens_per_s_user);
  const wrong = run('speed', '--gpu', 'h100-sxm', '--measured', file);
  assert.equal(wrong.code, 2);
  assert.match(wrong.err, /--measured: the probe ran on 'NVIDIA H200' \(catalog id h200-sxm\)/);
  const bad = run('probe', 'compare', join(process.env.GPUPLAN_SOURCE_DIR, 'README.md'));
  assert.equal(bad.code, 2);
  assert.match(bad.err, /probe file: not valid JSON at line 1, column 1: expected a value/);
});

test('train: memory terms, verdict, time and cost; json equals the table', () => {
  const args = ['train', '--model', 'llama-3-8b', '--gpu', 'a100-sxm-80gb', '--dp', '8', '--zero', '3', '--context', '4096',
    '--tokens', '1e11'];
  const j = JSON.parse(run(...args, '--format', 'json').out);
  assert.equal(j.schema, 'gpuplan.train/1');
  assert.equal(j.gpus, 8);
  const keys = j.per_gpu.terms.map((t) => t.key);
  assert.deepEqual(keys, ['weights', 'gradients', 'master', 'optimizer', 'activations', 'logits', 'buffers', 'reserve',
    'overhead']);
  // Allocated (the tensors) + the allocator's reserve + the CUDA context = as the driver sees it.
  const reserve = j.per_gpu.terms.find((t) => t.key === 'reserve').bytes;
  assert.ok(Math.abs(reserve - 0.1 * j.allocated_bytes) < 1);
  // MFU predicted from the step's parts, the parts summing to the step.
  assert.equal(j.mfu.source, 'predicted');
  assert.ok(j.mfu.value > 0.3 && j.mfu.value < 0.75, String(j.mfu.value));
  const parts = j.step_parts.reduce((a, p) => a + p.seconds, 0);
  assert.ok(Math.abs(parts - j.step.seconds) / j.step.seconds < 1e-9, `${parts} vs ${j.step.seconds}`);
  const sum = j.per_gpu.terms.reduce((a, t) => a + t.bytes, 0);
  assert.ok(Math.abs(sum - j.per_gpu.total_bytes) < 1);
  assert.equal(j.fits, true);
  assert.ok(j.days > 20 && j.days < 90, String(j.days));  // the seed says 7-10 days
  // Strong scaling at the scenario's global batch (8 × 8 sequences): 1 .. 64 GPUs.
  assert.deepEqual(j.scaling.map((p) => p.gpus), [1, 2, 4, 8, 16, 32, 64]);
  assert.equal(j.step.accumulation_steps, 8);
  const strong = JSON.parse(run('train', '--model', 'llama-3-8b', '--gpu', 'h100-sxm', '--context', '2048',
    '--zero', '1', '--global-batch', '512', '--format', 'json').out);
  assert.equal(strong.scaling.length, 10);
  assert.ok(strong.scaling.at(-1).efficiency < strong.scaling[3].efficiency);
  const csv = run(...args, '--format', 'csv');
  assert.equal(csv.code, 0, csv.err);
  const lines = csv.out.trim().split('\n');
  assert.equal(lines[0], 'quantity,value,unit,how');
  const days = lines.find((l) => l.startsWith('Time,'));
  assert.ok(days && Math.abs(Number(days.split(',')[1]) - j.days) < 0.01, days);
  const t = run(...args, '--explain');
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, new RegExp(`Time\\s+${j.days.toFixed(2)}\\s+days`));
  assert.match(t.out, /Scaling with data-parallel GPUs at a global batch of 64 sequences/);
  // The seed's "7-10 days": the MFU it would need, said by the output.
  const target = run(...args, '--target-days', '10');
  assert.match(target.out, /To finish in 10 days on these 8 GPUs: MFU [1-9]\d\d% — impossible/);
  const tj = JSON.parse(run(...args, '--target-days', '7', '--format', 'json').out);
  assert.ok(tj.target.mfu_needed > 3 && tj.target.possible === false);
  const big = JSON.parse(run('train', '--model', 'llama-3.1-70b', '--gpu', 'h100-sxm', '--format', 'json').out);
  assert.equal(big.fits, false);
  assert.ok(big.suggestions.length > 0);
});

test('roofline: operations on both sides of the ridge; --svg writes the chart; bad overlay named', () => {
  const args = ['roofline', '--model', 'llama-3.1-8b', '--gpu', 'h100-sxm', '--prompt', '4096', '--context', '8192'];
  const r = run(...args, '--format', 'json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.schema, 'gpuplan.roofline/1');
  const op = (key) => j.ops.find((o) => o.key === key);
  assert.equal(op('decode_mlp_up').bound, 'memory');
  assert.equal(op('prefill_mlp_up').bound, 'compute');
  assert.equal(op('attention_naive').bound, 'memory');
  assert.equal(op('attention_flash').bound, 'compute');
  const bf16 = j.roof.compute.find((c) => c.key === 'bf16');
  assert.ok(Math.abs(bf16.ridge_flop_per_byte - 989.4e12 / 3.35e12) < 3);
  for (const phase of ['prefill', 'decode', 'train']) {
    const sum = j.ops.filter((o) => o.phase === phase && !o.alternative).reduce((a, o) => a + o.share, 0);
    assert.ok(Math.abs(sum - 1) < 1e-9, phase);
  }
  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-roof-'));
  const svg = join(dir, 'roof.svg');
  const t = run(...args, '--overlay', 'a100-sxm-80gb,rtx-4090', '--svg', svg, '--measured',
    join(process.env.GPUPLAN_SOURCE_DIR, 'tests/reference/device/h200-2026-11-30-probe.json'));
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /chart written to/);
  // The table prints the same intensity as the JSON.
  assert.match(t.out, new RegExp(`MLP gate \\+ up\\s+${op('prefill_mlp_up').intensity.toFixed(3)}`));
  const text = readFileSync(svg, 'utf8');
  assert.ok(text.startsWith('<?xml') && text.trimEnd().endsWith('</svg>'));
  // H100 (2 roofs + the attainable one from published copy/GEMM runs), A100 (2 + 1), RTX 4090
  // (2 + 1), H200 (2 + the attainable one + the probe's measured memory and L2).
  assert.equal((text.match(/<polyline class="roof"/g) || []).length, 14);
  assert.ok((text.match(/<circle class="point"/g) || []).length >= 20);
  assert.ok(!/NaN|Infinity/.test(text));
  const bad = run(...args, '--overlay', 'h100-sxm,nope');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--overlay: unknown GPU 'nope'/);
});

test('probe cpu: measures this machine, saves JSON that loads back, joins the roofline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-cpu-'));
  const out = join(dir, 'cpu.json');
  const r = run('probe', 'cpu', '--quick', '--out', out, '--format', 'json');
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, '');  // no progress line when stderr is not a terminal
  const j = JSON.parse(r.out);
  assert.equal(j.schema, 'gpuplan.cpu-probe/1');
  assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), j);
  assert.ok(j.gemm.points.length >= 1 && j.gemm.points.every((g) => g.flops_per_s > 1e8), JSON.stringify(j.gemm));
  assert.ok(JSON.stringify(j.stream).includes('triad'), JSON.stringify(j.stream).slice(0, 300));
  const shown = run('probe', 'compare', out);
  assert.equal(shown.code, 0, shown.err);
  assert.match(shown.out, /SGEMM N=1024, 1 thread/);
  assert.match(shown.out, /STREAM triad/);
  const svg = join(dir, 'roof.svg');
  const roof = run('roofline', '--model', 'llama-3.1-8b', '--gpu', 'rtx-4090', '--cpu', out, '--svg', svg);
  assert.equal(roof.code, 0, roof.err);
  assert.match(readFileSync(svg, 'utf8'), /SGEMM N=1024/);
  writeFileSync(join(dir, 'bad.json'), '{"schema": "gpuplan.cpu-probe/1", "stream": [{"kernel": "triad", "bytes_per_s": -5}]}');
  const bad = run('probe', 'compare', join(dir, 'bad.json'));
  assert.equal(bad.code, 2);
  assert.match(bad.err, /bytes_per_s/);
  const extra = run('probe', 'cpu', 'what');
  assert.equal(extra.code, 2);
});

test('presets: listed, usable as --preset on every scenario command, flags override them, unknown ones named', () => {
  const list = run('catalog', 'presets', '--format', 'json');
  assert.equal(list.code, 0, list.err);
  const presets = JSON.parse(list.out).rows;
  assert.ok(presets.length >= 7);
  for (const p of presets) {
    const r = run(p.panel, '--preset', p.id, '--format', 'json');
    assert.equal(r.code, 0, `${p.id}: ${r.err}`);
    assert.equal(JSON.parse(r.out).state.startsWith('v=1&'), true);
  }
  const seed = JSON.parse(run('fit', '--preset', 'seed-70b-2x4090', '--batch', '4', '--format', 'json').out);
  assert.equal(seed.fits, false);  // the seed's 70B on 2 x 4090 at 4-bit: one sequence, not four
  const bad = run('fit', '--preset', 'nope');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--preset: unknown preset 'nope'/);
  const both = run('fit', '--preset', 'seed-70b-2x4090', '--state', 'v=1');
  assert.equal(both.code, 2);
});

test('cost: cloud on demand and spot vs owned; json, table and md carry the same numbers', () => {
  const args = ['--model', 'llama-3.1-8b', '--gpu', 'rtx-4090', '--count', '2', '--price-hour', '0.74',
    '--buy-usd', '1599', '--utilization', '0.25', '--kwh-usd', '0.3', '--pue', '1.5', '--spot-overhead', '0.2'];
  const r = run('cost', ...args, '--format', 'json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.schema, 'gpuplan.cost/1');
  assert.equal(j.gpus, 2);
  const c = j.cost;
  assert.ok(Math.abs(c.cloud_month - 1.48 * 182.5) < 1e-9);
  assert.ok(Math.abs(c.break_even_months - 2 * 1599 / ((1.48 - 0.405) * 182.5)) < 1e-9);
  assert.equal(c.series.months.length, c.series.cloud.length);
  assert.equal(c.series.owned[0], 2 * 1599);
  for (const v of [c.cloud_per_m_output, c.owned_per_m_output, c.owned_month]) assert.ok(v > 0);
  // The table and the Markdown show the JSON's figures, rounded.
  const table = run('cost', ...args);
  assert.equal(table.code, 0, table.err);
  assert.match(table.out, new RegExp(`pays off after ${c.break_even_months.toFixed(1)} months`));
  const md = run('cost', ...args, '--format', 'md');
  assert.equal(md.code, 0, md.err);
  const owned = md.out.split('\n').find((l) => l.startsWith('| owned |'));
  assert.ok(owned.includes(`$${c.owned_per_m_output.toFixed(3)}`), owned);
  assert.ok(owned.includes(` ${c.break_even_months.toFixed(1)} |`), owned);
  // A link from an embedded panel is a valid --state: the page's own keys are not the scenario's.
  const embedded = run('cost', '--state', `embed=cost&${j.state}&theme=light`, '--format', 'json');
  assert.equal(embedded.code, 0, embedded.err);
  assert.equal(JSON.parse(embedded.out).cost.break_even_months, c.break_even_months);
  const bad = run('cost', '--spot-overhead', '-1');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--spot-overhead: '-1'/);
});
