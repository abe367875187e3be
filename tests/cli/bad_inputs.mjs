// Hostile and careless input through the real CLI, by kind (issue 22's list: integers that wrap,
// huge numbers, NaN and infinity, typos, empty and duplicate ids, a directory or a missing file,
// truncated JSON, misspelt commands, contradictions), each run and sorted by what the user got:
//
//   refused   exit 2 and the message names the field, flag, key or word that is wrong
//   warned    exit 0 with a warning that names it (a contradiction or a typo the run survives)
//   unclear   refused, but the message does not name what is wrong
//   silent    accepted without a word about it
//   nan       NaN or infinity printed as a result
//   crash     a signal, a sanitizer report, or exit 1 (an internal error by the CLI's own rule)
//   hang      no answer within the time limit
//
// A case expects `refuse` (an error is the only right answer) or `either` (a warning will do).
// Run it as a program to print the tally (node tests/cli/bad_inputs.mjs CLI [--json FILE]);
// tests/cli/bad_inputs.test.mjs holds the current binary to it. The cases are built from
// the issue's list, not from what the CLI happens to say, so an older binary can be tallied too.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, '..', 'fuzz', 'corpus');

export const kOutcomes = ['refused', 'warned', 'unclear', 'silent', 'nan', 'crash', 'hang'];

function source(fields) {
  return [{ title: 'bad-input test', url: 'https://example.invalid/', read: '2026-12-04', fields }];
}
// A small, valid user catalog: one GPU (the H100 SXM's entry under another id) and one flat model.
function gpuEntry(extra = {}) {
  const g = JSON.parse(readFileSync(join(corpus, 'catalog', 'gpus-0.json'), 'utf8')).gpus[0];
  return { ...g, id: 'my-gpu', name: 'My GPU', ...extra };
}
function modelEntry(extra = {}) {
  return { id: 'tiny', name: 'Tiny', layers: 4, hidden: 256, heads: 8, kv_heads: 8, head_dim: 32, vocab: 1000,
    max_context: 4096, sources: source(['layers', 'hidden', 'heads', 'kv_heads', 'head_dim', 'vocab', 'max_context']),
    ...extra };
}
const config = (name) => JSON.parse(readFileSync(join(corpus, 'hf_config', name), 'utf8'));

// Every case: [kind, label, argv (files already written), expect, what the message must name].
export function buildCases(dir) {
  const cases = [];
  let n = 0;
  const file = (text, name = `f${++n}.json`) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const add = (kind, label, args, expect, names) => cases.push({ kind, label, args, expect, names });

  // 1. Integers that wrap or run away: config.json keys and catalog model fields.
  const wraps = ['2147483648', '4294971392', '9223372036854775807', '18446744073709551616', '23333333334', '-1'];
  const llama = JSON.stringify(config('llama-3.1-8b.json'));
  for (const key of ['num_hidden_layers', 'hidden_size', 'num_attention_heads', 'num_key_value_heads',
    'intermediate_size', 'vocab_size', 'max_position_embeddings', 'head_dim'])
    for (const v of wraps) {
      const text = key === 'head_dim' ? llama.replace('"hidden_size"', `"head_dim": ${v}, "hidden_size"`)
        : llama.replace(new RegExp(`"${key}": ?-?[0-9]+`), `"${key}": ${v}`);
      add('wrap', `import-hf ${key}=${v}`, ['import-hf', file(text)], 'refuse', key);
    }
  const mixtral = JSON.stringify(config('mixtral-8x7b.json'));
  for (const key of ['num_local_experts', 'num_experts_per_tok'])
    for (const v of wraps)
      add('wrap', `import-hf ${key}=${v}`,
        ['import-hf', file(mixtral.replace(new RegExp(`"${key}": ?-?[0-9]+`), `"${key}": ${v}`))], 'refuse', key);
  for (const key of ['layers', 'hidden', 'heads', 'vocab'])
    for (const v of ['4294967296', '4294971392', '-4294967296'])
      add('wrap', `catalog model ${key}=${v}`,
        ['--catalog', file(`{"schema": 1, "models": [${JSON.stringify(modelEntry()).replace(new RegExp(`"${key}":[0-9]+`),
          `"${key}":${v}`)}]}`), 'fit', '--model', 'tiny'], 'refuse', key);

  // 2. Huge numbers: flags past their limits, catalog figures past any real GPU, JSON past a double.
  for (const [flag, v] of [['context', '1e12'], ['batch', '1e15'], ['tp', '1e9'], ['pp', '1000000'], ['prompt', '1e18'],
    ['gpu-mem-gib', '1e300'], ['price-hour', '1e308'], ['overhead-gib', '1e10'], ['used-gib', '1e9'],
    ['ram-gbs', '1e30'], ['years', '1e9'], ['mem-util', '7']])
    add('huge', `fit --${flag} ${v}`, ['fit', `--${flag}`, v], 'refuse', `--${flag}`);
  for (const [flag, v] of [['dp', '1e9'], ['tokens', '1e40'], ['micro-batch', '1e12'], ['mfu', '50']])
    add('huge', `train --${flag} ${v}`, ['train', `--${flag}`, v], 'refuse', `--${flag}`);
  add('huge', 'serve --clients 1e12', ['serve', '--clients', '1e12'], 'refuse', '--clients');
  add('huge', 'serve --rate 1e300', ['serve', '--rate', '1e300'], 'refuse', '--rate');
  for (const [field, value] of [['tdp_w', 1e30], ['l2_cache_mib', 1e300], ['boost_clock_mhz', 1e20]])
    add('huge', `catalog gpu ${field}=${value}`, ['--catalog', file(JSON.stringify({ schema: 1, gpus: [gpuEntry({ [field]: value })] })),
      'fit', '--gpu', 'my-gpu'], 'refuse', field);
  add('huge', 'catalog gpu memory 1e30 GB', ['--catalog', file(JSON.stringify({ schema: 1,
    gpus: [gpuEntry({ memory: { value: 1e30, unit: 'GB', type: 'HBM3' } })] })), 'fit', '--gpu', 'my-gpu'], 'refuse', 'memory');
  add('huge', 'catalog gpu bandwidth 1e400', ['--catalog', file(JSON.stringify({ schema: 1, gpus: [gpuEntry()] })
    .replace('"value":3.35', '"value":1e400')), 'fit', '--gpu', 'my-gpu'], 'refuse', /line \d+, column \d+/);
  add('huge', 'import-hf hidden_size 1e400', ['import-hf', file(llama.replace('"hidden_size":4096', '"hidden_size":1e400'))],
    'refuse', /line \d+, column \d+/);
  // (a command line holds 128 KiB per argument: the page's 2 MB link is a fuzz and unit case)
  add('huge', 'a 100 KB link', ['fit', '--state', 'v=1&' + 'zz=1&'.repeat(20000)], 'either', /more/);

  // 3. NaN and infinity in every numeric flag of fit and train (and the views' own).
  const numeric = ['context', 'prompt', 'years', 'batch', 'tp', 'pp', 'mem-util', 'overhead-gib', 'gpu-mem-gib', 'used-gib',
    'ram-gbs', 'price-hour', 'fx'];
  for (const flag of numeric)
    for (const v of ['nan', 'inf', '-inf'])
      add('nan', `fit --${flag} ${v}`, ['fit', `--${flag}`, v], 'refuse', `--${flag}`);
  for (const flag of ['mfu', 'tokens', 'dp', 'micro-batch', 'reserve', 'target-days'])
    for (const v of ['nan', 'inf'])
      add('nan', `train --${flag} ${v}`, ['train', `--${flag}`, v], 'refuse', `--${flag}`);
  for (const [cmd, flag] of [['serve', 'rate'], ['compare', 'min-tps'], ['plan', 'max-watts'], ['compare', 'max-upfront']])
    for (const v of ['nan', 'inf'])
      add('nan', `${cmd} --${flag} ${v}`, [cmd, `--${flag}`, v], 'refuse', `--${flag}`);
  add('nan', 'link context=nan', ['fit', '--state', 'v=1&context=nan'], 'either', 'context');
  add('nan', 'link tp=inf', ['fit', '--state', 'v=1&tp=inf'], 'either', 'tp');
  add('nan', 'catalog gpu tdp_w NaN (not JSON)', ['--catalog', file(JSON.stringify({ schema: 1, gpus: [gpuEntry()] })
    .replace('"tdp_w":700', '"tdp_w":NaN')), 'fit'], 'refuse', /line \d+, column \d+/);

  // 4. Typos: a misspelt list, field, flag or id.
  for (const [list, entry] of [['gpu', gpuEntry()], ['model', modelEntry()], ['interconect', {}], ['clouds', {}]])
    add('typo', `catalog list '${list}'`, ['catalog', 'validate', file(JSON.stringify({ schema: 1, [list]: [entry] }))],
      'refuse', list);
  for (const [good, bad] of [['bandwidth', 'bandwith'], ['tdp_w', 'tdp_ww'], ['memory', 'memroy'], ['dense_tflops', 'dense_tflop']]) {
    const g = gpuEntry();
    g[bad] = g[good];
    delete g[good];
    if (good === 'tdp_w' || good === 'dense_tflops') g[good] = gpuEntry()[good];  // an extra, misspelt field
    add('typo', `catalog gpu field '${bad}'`, ['catalog', 'validate', file(JSON.stringify({ schema: 1, gpus: [g] }))],
      'either', bad);
  }
  for (const [good, bad] of [['max_context', 'contxt'], ['vocab', 'vocabb'], ['layers', 'layrs']]) {
    const m = modelEntry();
    m[bad] = m[good];
    delete m[good];
    add('typo', `catalog model field '${bad}'`, ['catalog', 'validate', file(JSON.stringify({ schema: 1, models: [m] }))],
      'either', bad);
  }
  for (const [cmd, flag] of [['fit', '--modle'], ['fit', '--contxt'], ['speed', '--btach'], ['train', '--mehtod'],
    ['compare', '--max-upfrnt'], ['fit', '--gpus']])
    add('typo', `${cmd} ${flag}`, [cmd, flag, '1'], 'refuse', flag);
  for (const [flag, v] of [['gpu', 'h100'], ['gpu', 'rtx4090'], ['model', 'llama3-8b'], ['model', 'Llama-3.1-8B-Instruct'],
    ['weights', 'q4km'], ['kv', 'fp88'], ['engine', 'vlm'], ['split', 'layr']])
    add('typo', `fit --${flag} ${v}`, ['fit', `--${flag}`, v], 'refuse', v);
  add('typo', 'link field modle=', ['fit', '--state', 'v=1&modle=llama-3.1-8b'], 'either', 'modle');
  add('typo', 'link gpu=h100', ['fit', '--state', 'v=1&gpu=h100'], 'either', 'h100');

  // 5. Empty and duplicate ids.
  add('empty-id', 'gpu id ""', ['catalog', 'validate', file(JSON.stringify({ schema: 1, gpus: [gpuEntry({ id: '' })] }))],
    'refuse', 'id');
  add('empty-id', 'model id ""', ['catalog', 'validate', file(JSON.stringify({ schema: 1, models: [modelEntry({ id: '' })] }))],
    'refuse', 'id');
  add('empty-id', 'gpu id "   "', ['catalog', 'validate', file(JSON.stringify({ schema: 1, gpus: [gpuEntry({ id: '   ' })] }))],
    'refuse', 'id');
  add('empty-id', 'gpu without an id', ['catalog', 'validate', file(JSON.stringify({ schema: 1,
    gpus: [Object.fromEntries(Object.entries(gpuEntry()).filter(([k]) => k !== 'id'))] }))], 'refuse', 'id');
  add('empty-id', 'two gpus with one id', ['catalog', 'validate', file(JSON.stringify({ schema: 1, gpus: [gpuEntry(), gpuEntry()] }))],
    'refuse', 'my-gpu');
  add('empty-id', 'two models with one id', ['catalog', 'validate', file(JSON.stringify({ schema: 1,
    models: [modelEntry(), modelEntry()] }))], 'refuse', 'tiny');
  add('empty-id', 'fit --gpu ""', ['fit', '--gpu', ''], 'refuse', '--gpu');
  add('empty-id', 'fit --model ""', ['fit', '--model', ''], 'refuse', '--model');

  // 6. A directory, a missing, empty, unreadable or binary file at every door that reads one.
  const sub = join(dir, 'a-directory');
  mkdirSync(sub, { recursive: true });
  const unreadable = file('{}', 'unreadable.json');
  chmodSync(unreadable, 0o000);
  const files = [['a directory', sub], ['a missing file', join(dir, 'missing.json')], ['an empty file', file('', 'empty.json')],
    ['a binary file', file(Buffer.from([0, 159, 146, 150, 0, 255, 1]), 'binary.json')]];
  if (process.getuid && process.getuid() !== 0) files.push(['an unreadable file', unreadable]);
  for (const [what, p] of files) {
    add('file', `--catalog ${what}`, ['--catalog', p, 'fit'], 'refuse', p.split('/').pop());
    add('file', `import-hf ${what}`, ['import-hf', p], 'refuse', p.split('/').pop());
    add('file', `speed --measured ${what}`, ['speed', '--measured', p], 'refuse', p.split('/').pop());
    add('file', `roofline --cpu ${what}`, ['roofline', '--cpu', p], 'refuse', p.split('/').pop());
    add('file', `probe compare ${what}`, ['probe', 'compare', p], 'refuse', p.split('/').pop());
    add('file', `catalog validate ${what}`, ['catalog', 'validate', p], 'refuse', p.split('/').pop());
  }

  // 7. Truncated JSON: a catalog, a config.json and probe files cut short.
  const catalogText = JSON.stringify({ schema: 1, gpus: [gpuEntry()], models: [modelEntry()] }, null, 1);
  const configText = JSON.stringify(config('llama-3.1-8b.json'), null, 2);
  const gpuProbe = readFileSync(join(corpus, 'gpu_probe', 'h200.json'), 'utf8');
  const cpuProbe = readFileSync(join(corpus, 'cpu_probe', 'probe.json'), 'utf8');
  const cuts = [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 0.999];
  for (const f of cuts) {
    add('truncated', `catalog cut at ${Math.round(f * 100)}%`,
      ['--catalog', file(catalogText.slice(0, Math.floor(catalogText.length * f))), 'fit'], 'refuse', /line \d+, column \d+/);
    add('truncated', `config.json cut at ${Math.round(f * 100)}%`,
      ['import-hf', file(configText.slice(0, Math.floor(configText.length * f)))], 'refuse', /line \d+, column \d+/);
  }
  for (const f of [0.1, 0.5, 0.9]) {
    add('truncated', `GPU probe cut at ${f * 100}%`,
      ['speed', '--measured', file(gpuProbe.slice(0, Math.floor(gpuProbe.length * f)))], 'refuse', /line \d+, column \d+/);
    add('truncated', `CPU probe cut at ${f * 100}%`,
      ['roofline', '--cpu', file(cpuProbe.slice(0, Math.floor(cpuProbe.length * f)))], 'refuse', /line \d+, column \d+/);
  }
  add('truncated', 'a link cut mid-escape', ['fit', '--state', 'v=1&model=llama-3.1-8b&gpu=rtx-40%'], 'either', 'gpu');

  // 8. Misspelt commands.
  for (const [bad, good] of [['fitt', 'fit'], ['fti', 'fit'], ['sped', 'speed'], ['trian', 'train'], ['comapre', 'compare'],
    ['roofine', 'roofline'], ['serv', 'serve'], ['catalgo', 'catalog'], ['imprt-hf', 'import-hf'], ['prbe', 'probe'],
    ['Fit', 'fit'], ['costs', 'cost']])
    add('command', `gpuplan ${bad}`, [bad], 'refuse', new RegExp(`'${bad}'.*${good}`));
  add('command', 'catalog gpu (for gpus)', ['catalog', 'gpu'], 'refuse', 'gpu');
  add('command', 'probe gpus (for gpu)', ['probe', 'gpus'], 'refuse', 'gpus');

  // 9. Contradictions: combinations no engine or trainer runs as asked.
  const contra = [
    ['offload 2 without ZeRO-3', ['train', '--offload', '2', '--zero', '0', '--dp', '8'], 'offload'],
    ['offload 1 without ZeRO', ['train', '--offload', '1', '--zero', '0', '--dp', '8'], 'offload'],
    ['tp not dividing heads', ['fit', '--model', 'llama-3.1-8b', '--tp', '3', '--gpu', 'h100-sxm'], 'heads'],
    ['pp not dividing layers', ['fit', '--model', 'llama-3.1-8b', '--pp', '5', '--gpu', 'h100-sxm'], 'pp'],
    ['pp above layers', ['fit', '--model', 'llama-3.1-8b', '--pp', '64', '--gpu', 'h100-sxm'], 'pp'],
    ['ep on a dense model', ['fit', '--model', 'llama-3.1-8b', '--ep', '1', '--tp', '2', '--gpu', 'h100-sxm'], 'ep'],
    ['FP8 KV on a GPU without FP8', ['fit', '--model', 'llama-3.1-8b', '--kv', 'fp8', '--gpu', 'a100-sxm-80gb'], 'kv'],
    ['context beyond the window', ['fit', '--model', 'llama-2-7b', '--context', '65536', '--gpu', 'h100-sxm'], 'context'],
    ['prompt beyond the context', ['fit', '--prompt', '9000', '--context', '8192'], 'prompt'],
    ['vp without pp', ['train', '--vp', '4', '--pp', '1'], 'vp'],
    ['ZeRO on one GPU', ['train', '--zero', '3', '--dp', '1'], 'zero'],
    ['moe-ep on a dense model', ['train', '--model', 'llama-3.1-8b', '--moe-ep', '8', '--dp', '8'], 'moe-ep'],
    ['LoRA rank on full training', ['train', '--method', 'full', '--lora-rank', '64'], 'lora'],
    ['cp with an odd sequence', ['train', '--cp', '2', '--context', '4097'], 'cp'],
    ['mem-util with llama.cpp', ['fit', '--engine', 'llama.cpp', '--mem-util', '0.5', '--weights', 'q4_k_m'], 'mem-util'],
    ['gpu-layers with vLLM', ['fit', '--engine', 'vllm', '--gpu-layers', '10'], 'partial offload'],
    ['FP8 weights on a GPU without FP8', ['fit', '--weights', 'fp8', '--gpu', 'a100-sxm-80gb'], 'FP8'],
    ['ECC on a card without ECC', ['fit', '--gpu', 'rx-7900-xtx', '--ecc', 'on'], 'ecc'],
  ];
  for (const [label, args, names] of contra) add('contradiction', label, args, 'either', names);
  return cases;
}

function named(text, names) {
  return names instanceof RegExp ? names.test(text) : text.toLowerCase().includes(names.toLowerCase());
}

export function classify(r, c) {
  if (r.error && r.error.code === 'ETIMEDOUT') return 'hang';
  if (r.signal || r.status === null || r.status === 1 || r.status >= 128) return 'crash';
  if (/(AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:|LeakSanitizer)/.test(r.stderr)) return 'crash';
  if (/(^|[^A-Za-z'"])(-?nan|-?inf(inity)?)($|[^A-Za-z'"])/i.test(r.stdout)) return 'nan';
  if (r.status !== 0) return named(r.stderr, c.names) ? 'refused' : 'unclear';
  // A warning is a line that says so and names what it is about.
  const warnings = (r.stdout + r.stderr).split('\n').filter((line) => /warning|did you mean|ignored|not read/i.test(line));
  return warnings.some((line) => named(line, c.names)) ? 'warned' : 'silent';
}

export function good(outcome, c) {
  return outcome === 'refused' || (outcome === 'warned' && c.expect === 'either');
}

export function runCases(cli, { timeoutMs = 60000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gpuplan-bad-'));
  return buildCases(dir).map((c) => {
    const start = process.hrtime.bigint();
    const r = spawnSync(cli, c.args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 512 * 1024 * 1024 });
    const outcome = classify(r, c);
    return { ...c, args: c.args.map((a) => (a.length > 120 ? a.slice(0, 117) + '...' : a)), outcome, ok: good(outcome, c),
      code: r.status, seconds: Number(process.hrtime.bigint() - start) / 1e9,
      said: (r.stderr || r.stdout || '').split('\n').filter(Boolean).slice(0, 2).join(' / ').slice(0, 300) };
  });
}

export function tally(results) {
  const kinds = [...new Set(results.map((r) => r.kind))];
  const rows = kinds.map((kind) => {
    const of = results.filter((r) => r.kind === kind);
    return { kind, cases: of.length, good: of.filter((r) => r.ok).length,
      ...Object.fromEntries(kOutcomes.map((o) => [o, of.filter((r) => r.outcome === o).length])) };
  });
  return rows;
}

export function markdown(rows) {
  const head = ['kind', 'cases', 'good', ...kOutcomes];
  const total = Object.fromEntries(head.map((h) => [h, h === 'kind' ? '**all**' : rows.reduce((s, r) => s + r[h], 0)]));
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`,
    ...[...rows, total].map((r) => `| ${head.map((h) => r[h]).join(' | ')} |`)].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cli = process.argv[2] || process.env.GPUPLAN_CLI;
  if (!cli) {
    console.error('usage: node tests/cli/bad_inputs.mjs GPUPLAN_BINARY [--json FILE]');
    process.exit(2);
  }
  const results = runCases(cli);
  console.log(markdown(tally(results)));
  for (const r of results.filter((x) => !x.ok))
    console.log(`- ${r.kind}: ${r.label} -> ${r.outcome} (exit ${r.code}): ${r.said}`);
  const json = process.argv.indexOf('--json');
  if (json > 0) writeFileSync(process.argv[json + 1], JSON.stringify(results, null, 1) + '\n');
}
