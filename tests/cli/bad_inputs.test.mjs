// The bad-input tally (bad_inputs.mjs) held to: every hostile or careless input refused with a
// message that names what is wrong, or, where a warning will do (a contradiction, a typo the run
// survives), warned about by name. Never a crash, a hang, NaN printed, or silence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildCases, markdown, runCases, tally } from './bad_inputs.mjs';

const bin = process.env.GPUPLAN_CLI;
assert.ok(bin, 'set GPUPLAN_CLI to the gpuplan binary');

test('every flag a case uses exists (else "no such flag" would pass for a refusal)', () => {
  const help = (cmd) => spawnSync(bin, [cmd, '--help'], { encoding: 'utf8' }).stdout;
  for (const c of buildCases(mkdtempSync(join(tmpdir(), 'gpuplan-bad-flags-')))) {
    if ((c.kind !== 'nan' && c.kind !== 'huge') || c.args[0].startsWith('--')) continue;
    const flag = c.args.find((a) => a.startsWith('--') && a !== '--state' && a !== '--catalog');
    if (flag) assert.match(help(c.args[0]), new RegExp(`${flag}\\b`), `${c.label}: ${c.args[0]} has no ${flag}`);
  }
});

test('bad input: every case refused or warned by name, none crashes, hangs, prints NaN or passes silently', () => {
  const results = runCases(bin);
  const rows = tally(results);
  console.log(markdown(rows));
  const wrong = results.filter((r) => !r.ok).map((r) => `${r.kind}: ${r.label} -> ${r.outcome} (exit ${r.code}): ${r.said}`);
  assert.deepEqual(wrong, []);
  assert.ok(results.length >= 250, `${results.length} cases`);
});
