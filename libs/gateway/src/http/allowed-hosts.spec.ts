import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALLOWED_HOST_PATTERN, DEFAULT_ALLOWED_HOSTS, isAllowedHost, refuseForeignHosts } from './allowed-hosts.js';

describe('isAllowedHost', () => {
  it('allows the loopback names by default, on any port', () => {
    for (const host of [
      'localhost',
      'localhost:3000',
      '127.0.0.1:8080',
      '[::1]:3000',
      '[::1]',
      'vault.localhost:5173',
      'a.b.localhost',
      'LOCALHOST:3000',
      'localhost.',
    ])
      expect([host, isAllowedHost(host, DEFAULT_ALLOWED_HOSTS)]).toEqual([host, true]);
  });

  it('refuses every other name, including look-alikes of the allowed ones', () => {
    for (const host of [
      '',
      'rebound.example',
      'localhost.rebound.example',
      'evil-localhost',
      '127.0.0.2',
      '127.0.0.1.nip.io',
      '[::2]',
      '10.1.2.3:3000',
      'localhostx',
    ])
      expect([host, isAllowedHost(host, DEFAULT_ALLOWED_HOSTS)]).toEqual([host, false]);
  });

  it('holds an entry with a port to that port, a host without one to its scheme’s default', () => {
    const allowed = ['vault.acme.example', 'admin.acme.example:8443', 'tls.acme.example:443'];
    expect(isAllowedHost('vault.acme.example:9999', allowed)).toBe(true);
    expect(isAllowedHost('admin.acme.example:8443', allowed)).toBe(true);
    expect(isAllowedHost('admin.acme.example:8444', allowed)).toBe(false);
    expect(isAllowedHost('admin.acme.example', allowed)).toBe(false);
    expect(isAllowedHost('tls.acme.example', allowed, '443')).toBe(true);
    expect(isAllowedHost('tls.acme.example', allowed, '80')).toBe(false);
  });

  it('matches *.domain below the domain only', () => {
    expect(isAllowedHost('a.acme.example', ['*.acme.example'])).toBe(true);
    expect(isAllowedHost('acme.example', ['*.acme.example'])).toBe(false);
    expect(isAllowedHost('evilacme.example', ['*.acme.example'])).toBe(false);
  });
});

describe('ALLOWED_HOST_PATTERN', () => {
  it('takes names, wildcards, IPv4 and bracketed IPv6 with an optional port, and nothing else', () => {
    for (const entry of [...DEFAULT_ALLOWED_HOSTS, 'vault.acme.example', 'vault.acme.example:8443', '*.acme.example', '10.0.0.1:3000', '[fd00::1]:443'])
      expect([entry, ALLOWED_HOST_PATTERN.test(entry)]).toEqual([entry, true]);
    for (const entry of ['http://vault.example', 'vault.example/', '*', '*.', 'vault example', 'a.*.example', '::1', 'vault.example:port'])
      expect([entry, ALLOWED_HOST_PATTERN.test(entry)]).toEqual([entry, false]);
  });
});

describe('refuseForeignHosts', () => {
  let server: FastifyInstance;

  beforeAll(async () => {
    server = Fastify();
    refuseForeignHosts(server, DEFAULT_ALLOWED_HOSTS);
    server.get('/api/targets', async () => []);
    server.get('/health/live', async () => ({ status: 'ok' }));
    server.get('/health/ready', async () => ({ status: 'ready' }));
    await server.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(() => server.close());

  /** A GET with the given Host header (fetch would put the address there). */
  const getAs = (host: string, path: string) =>
    new Promise<{ statusCode: number; contentType?: string; body: string }>((resolve, reject) => {
      const { port } = server.server.address() as AddressInfo;
      get({ host: '127.0.0.1', port, path, headers: { host } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, contentType: response.headers['content-type'], body }));
      }).on('error', reject);
    });

  it('answers 421 with a plain message to a foreign Host, before the route', async () => {
    const response = await getAs('rebound.example:3000', '/api/targets');
    expect(response.statusCode).toBe(421);
    expect(response.contentType).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe('Host: "rebound.example:3000" is not served by this vault (see VAULT_ALLOWED_HOSTS)');
  });

  it('serves an allowed Host, and health under any Host (the kubelet probes with the pod IP)', async () => {
    expect((await getAs('127.0.0.1:3000', '/api/targets')).statusCode).toBe(200);
    expect((await getAs('10.244.1.7:3000', '/health/live')).statusCode).toBe(200);
    expect((await getAs('rebound.example', '/health/ready?x=1')).statusCode).toBe(200);
    expect((await getAs('rebound.example', '/health/livez')).statusCode).toBe(421);
  });
});
