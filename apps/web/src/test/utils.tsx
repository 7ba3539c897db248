import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import { createQueryClient } from '../lib/query-client';
import { Toaster } from '../components/toaster';

export type RouteHandler = (init: RequestInit | undefined, url: string) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function text(body: string, status: number, statusText = ''): Response {
  return new Response(body, { status, statusText, headers: { 'Content-Type': 'text/plain' } });
}

/**
 * Replaces global fetch with a router keyed by "METHOD /path". Unknown routes answer 404.
 * Returns the mock so tests can inspect calls.
 */
export function mockFetch(routes: Record<string, RouteHandler>) {
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    // An exact match first ("GET /api/journal?limit=50&offset=0"), then the path without its query.
    const handler = routes[`${method} ${url}`] ?? routes[`${method} ${url.split('?')[0]}`];
    if (!handler) return text('Not Found', 404, 'Not Found');
    return handler(init, url);
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

export function renderWithProviders(ui: ReactElement, { route = '/', withToaster = true }: { route?: string; withToaster?: boolean } = {}) {
  const client = createQueryClient();
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[route]}>
        {ui}
        {withToaster ? <Toaster /> : null}
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, client };
}
