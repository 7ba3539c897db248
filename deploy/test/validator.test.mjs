// The validator itself: it accepts and refuses what it claims to.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assert, equal, root, run, template, validator } from './kit.mjs';

const fixtures = join(root, 'tools/validate-manifests/testdata');
for (const file of readdirSync(fixtures)
  .filter((f) => f.endsWith('.yaml'))
  .sort()) {
  const text = readFileSync(join(fixtures, file), 'utf8');
  const valid = text.startsWith('# Valid');
  test(`validator: ${file} is ${valid ? 'accepted' : 'refused'}`, () => {
    const result = run(validator, [join(fixtures, file)]);
    equal(result.status, valid ? 0 : 1, `exit status (output: ${result.stdout.trim()})`);
  });
}
test('validator: a misspelled field in the rendered chart is refused, by name', () => {
  const production = template(['-f', 'deploy/helm/values-production.yaml']);
  assert(production.status === 0, production.stderr);
  const broken = production.stdout.replace('readinessProbe:', 'readinesProbe:');
  const result = run(validator, ['-'], broken);
  equal(result.status, 1, 'exit status');
  assert(/INVALID apps\/v1 Deployment .*unknown field "spec\.template\.spec\.containers\[0\]\.readinesProbe"/.test(result.stdout), result.stdout);
  assert(/validated \d+ objects .*: \d+ valid, 1 invalid/.test(result.stdout), 'the summary counts the one invalid object');
});
