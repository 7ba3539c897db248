import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '@vault/platform';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVaultConfig } from '../src/index.js';
import { OWNER, embeddedConfig, startEmbeddedVault } from './stack.js';

/**
 * VAULT_ALLOWED_HOSTS as an operator sets it (the chart renders the ingress
 * host there): only those names are served, and a write's Origin must be the
 * origin the request was sent to. The loopback default and the refusals of every other input are in
 * fuzz.int-spec.ts, in both modes.
 */

/** A request with the given Host header; fetch would send the address instead. */
function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  const url = new URL(baseUrl);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const sent = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('VAULT_ALLOWED_HOSTS', () => {
  it('defaults to the loopback names, lower-cases what it is given, and names every bad entry', () => {
    expect(loadVaultConfig({}).VAULT_ALLOWED_HOSTS).toEqual(['localhost', '127.0.0.1', '[::1]', '*.localhost']);
    expect(loadVaultConfig({ VAULT_ALLOWED_HOSTS: ' ' }).VAULT_ALLOWED_HOSTS).toEqual(['localhost', '127.0.0.1', '[::1]', '*.localhost']);
    expect(loadVaultConfig({ VAULT_ALLOWED_HOSTS: 'Vault.Acme.Example, *.lan.example:8443,[fd00::1]' }).VAULT_ALLOWED_HOSTS).toEqual([
      'vault.acme.example',
      '*.lan.example:8443',
      '[fd00::1]',
    ]);
    let error: unknown;
    try {
      loadVaultConfig({ VAULT_ALLOWED_HOSTS: 'vault.acme.example,https://vault.acme.example,vault.acme.example/app' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'VAULT_ALLOWED_HOSTS.1: must be a host name, *.domain, an IPv4 address or [IPv6 address], with an optional :port',
      'VAULT_ALLOWED_HOSTS.2: must be a host name, *.domain, an IPv4 address or [IPv6 address], with an optional :port',
    ]);
  });

  describe('set to the names of a deployment', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vault-allowed-hosts-'));
    let vault: Awaited<ReturnType<typeof startEmbeddedVault>>;
    let port: string;

    beforeAll(async () => {
      vault = await startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: dataDir, VAULT_ALLOWED_HOSTS: 'vault.test.example,*.lan.example:3443' }));
      port = new URL(vault.url).port;
    });

    afterAll(async () => {
      await vault?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('serves those names only: the loopback ones are no longer among them, and health answers any', async () => {
      expect((await send(vault.url, 'GET', '/api/system/status', { host: `vault.test.example:${port}` })).status).toBe(200);
      expect((await send(vault.url, 'GET', '/api/system/status', { host: 'box.lan.example:3443' })).status).toBe(200);
      expect(await send(vault.url, 'GET', '/api/system/status', { host: `box.lan.example:${port}` })).toEqual({
        status: 421,
        text: `Host: "box.lan.example:${port}" is not served by this vault (see VAULT_ALLOWED_HOSTS)`,
      });
      expect((await send(vault.url, 'GET', '/api/system/status', { host: `127.0.0.1:${port}` })).status).toBe(421);
      expect((await send(vault.url, 'GET', '/health/live', { host: `127.0.0.1:${port}` })).status).toBe(200);
    });

    it('takes a sign-in from a page of the name it was asked by, and refuses one from any other allowed name or port', async () => {
      const credentials = JSON.stringify({ username: OWNER.username, password: OWNER.password });
      const host = `vault.test.example:${port}`;
      const fromItself = await send(vault.url, 'POST', '/api/login', { host, origin: `http://${host}`, 'x-forwarded-for': '10.9.9.1' }, credentials);
      expect(fromItself.status).toBe(200);
      // Each of these is served by this vault or names an allowed host, but is not the origin the request went to.
      for (const origin of ['http://box.lan.example:3443', `http://127.0.0.1:${port}`, 'http://vault.test.example:3443', 'https://vault.test.example']) {
        const answer = await send(vault.url, 'POST', '/api/login', { host, origin, 'x-forwarded-for': '10.9.9.2' }, credentials);
        expect([origin, answer]).toEqual([origin, { status: 403, text: 'Cross-site request refused' }]);
      }
    });
  });
});
