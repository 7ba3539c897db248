import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The host names a vault answers when VAULT_ALLOWED_HOSTS names none: the
 * loopback names, which a DNS-rebinding page cannot bring (its Host is its own
 * domain, whatever address that domain resolves to).
 */
export const DEFAULT_ALLOWED_HOSTS = ['localhost', '127.0.0.1', '[::1]', '*.localhost'];

/** One allowed host: a name, an IPv4 address or a bracketed IPv6 one, `*.` for any name under a domain, and an optional `:port`. */
export const ALLOWED_HOST_PATTERN = /^(\*\.)?([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

/** The kubelet probes with the pod's IP as the Host: health answers whatever name it is asked by. */
const ANY_HOST_PATHS = new Set(['/health/live', '/health/ready']);

interface HostEntry {
  /** The name itself, or the domain after `*.`. */
  name: string;
  wildcard: boolean;
  /** Any port when absent. */
  port?: string;
}

function splitHost(host: string): { name: string; port?: string } {
  const lower = host.trim().toLowerCase();
  const bracket = lower.startsWith('[') ? lower.indexOf(']') : -1;
  const colon = lower.indexOf(':', bracket + 1);
  const name = colon === -1 ? lower : lower.slice(0, colon);
  const port = colon === -1 ? undefined : lower.slice(colon + 1);
  // "vault.example." is the same name as "vault.example".
  return { name: name.endsWith('.') ? name.slice(0, -1) : name, port: port || undefined };
}

function entryOf(allowed: string): HostEntry {
  const wildcard = allowed.trim().startsWith('*.');
  const { name, port } = splitHost(wildcard ? allowed.trim().slice(2) : allowed);
  return { name, wildcard, port };
}

/** Each list is read once: the hooks ask about every request. */
const parsed = new WeakMap<readonly string[], HostEntry[]>();
function entriesOf(allowed: readonly string[]): HostEntry[] {
  let entries = parsed.get(allowed);
  if (!entries) {
    entries = allowed.map(entryOf);
    parsed.set(allowed, entries);
  }
  return entries;
}

/**
 * Whether `host` (a Host header or a URL's host: name and optional port) is
 * one of the allowed hosts. An entry without a port allows every port; a host
 * without one is on `defaultPort` (80 or 443, by the scheme).
 */
export function isAllowedHost(host: string, allowed: readonly string[], defaultPort = '80'): boolean {
  if (!host) return false;
  const { name, port = defaultPort } = splitHost(host);
  return entriesOf(allowed).some((entry) => {
    if (entry.port !== undefined && entry.port !== port) return false;
    return entry.wildcard ? name.endsWith(`.${entry.name}`) : name === entry.name;
  });
}

/** The default port of the request's scheme, for a Host without one. */
export function defaultPortOf(request: FastifyRequest): string {
  return request.protocol === 'https' ? '443' : '80';
}

/**
 * Answers 421 to a request for a host name this vault does not serve, before
 * anything else runs: a DNS-rebinding page reaches the vault's address under
 * its own name, and must get nothing from it. `request.host` is the Host
 * header, or a trusted proxy's X-Forwarded-Host.
 */
export function refuseForeignHosts(fastify: FastifyInstance, allowed: readonly string[]) {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (ANY_HOST_PATHS.has(request.url.split('?')[0]) || isAllowedHost(request.host, allowed, defaultPortOf(request))) return done();
    reply
      .status(421)
      .type('text/plain; charset=utf-8')
      .send(`Host: ${JSON.stringify(request.host.slice(0, 100))} is not served by this vault (see VAULT_ALLOWED_HOSTS)`);
  });
}
