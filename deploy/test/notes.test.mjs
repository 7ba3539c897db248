// NOTES.txt: what helm install prints, for the trial and for production.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { assert, chart, fullname, helm, NAMESPACE, parse, RELEASE, run } from './kit.mjs';

/** helm template does not print NOTES.txt: render it as a template of a copy of the chart. */
function notes(args) {
  const copy = mkdtempSync(join(tmpdir(), 'vault-chart-'));
  try {
    cpSync(chart, copy, { recursive: true });
    cpSync(join(chart, 'templates/NOTES.txt'), join(copy, 'notes.txt'));
    writeFileSync(join(copy, 'templates/zz-notes.yaml'), 'notes: {{ tpl (.Files.Get "notes.txt") . | toJson }}\n');
    const result = run(helm, ['template', RELEASE, copy, '--namespace', NAMESPACE, '--show-only', 'templates/zz-notes.yaml', ...args]);
    assert(result.status === 0, result.stderr);
    return parse(result.stdout)[0].notes;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
test('NOTES (trial): how to reach the vault and read and set the owner password', () => {
  const text = notes(['-f', 'deploy/helm/values-trial.yaml']);
  for (const expected of [
    `port-forward svc/${fullname('gateway')} 8080:80`,
    `port-forward svc/${fullname('minio')} 9000:9000`,
    `get secret ${fullname('trial')}`,
    'VAULT_OWNER_PASSWORD',
    `rollout restart deployment/${fullname('auth-svc')}`,
  ])
    assert(text.includes(expected), `missing "${expected}" in:\n${text}`);
});
test('NOTES (production): the URL and how to set the owner password hash', () => {
  const text = notes(['-f', 'deploy/helm/values-production.yaml']);
  for (const expected of ['https://vault.acme.example/', 'argon2', 'patch secret vault-secrets', 'VAULT_OWNER_PASSWORD_HASH', 'docs/deploy.md'])
    assert(text.includes(expected), `missing "${expected}" in:\n${text}`);
});
