import type { INestApplication } from '@nestjs/common';
import { NO_OBSERVABILITY, OBSERVABILITY, type Observability, type SpanHandle, type TraceContext } from '@vault/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The label of a request no route answered: a page of the web app, a file, a 404. */
const NO_ROUTE = 'unmatched';

/**
 * Each HTTP request as its trace's root span and in
 * vault_http_request_duration_seconds, by the route pattern that answered it
 * (`/api/targets/:id`, never the URL with its ids), method and status.
 *
 * A `traceparent` sent by the client is not followed: the gateway faces the
 * internet, and a trace id is the vault's to choose. Nothing of the request
 * (address, path, body, session) becomes a label or an attribute.
 */
export class RequestObservation {
  private readonly spans = new WeakMap<FastifyRequest, SpanHandle>();

  constructor(private readonly observability: Observability) {}

  static of(app: INestApplication): RequestObservation {
    let observability = NO_OBSERVABILITY;
    try {
      observability = app.get<Observability>(OBSERVABILITY, { strict: false });
    } catch {
      // An application without the observability module (a test's): ids only, no metrics.
    }
    return new RequestObservation(observability);
  }

  /** First of all hooks, so that every request is counted, refusals included. */
  register(fastify: FastifyInstance): void {
    fastify.addHook('onRequest', (request, _reply, done) => {
      this.spans.set(request, this.observability.tracer.start(`HTTP ${request.method}`, 'server', undefined, { 'http.request.method': request.method }));
      done();
    });
    fastify.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions?.url ?? NO_ROUTE;
      const status = reply.statusCode;
      this.observability.metrics?.httpRequests.observe({ route, method: request.method, status: String(status) }, reply.elapsedTime / 1000);
      this.spans.get(request)?.end({
        name: `${request.method} ${route}`,
        failed: status >= 500,
        attributes: { 'http.route': route, 'http.response.status_code': status },
      });
      done();
    });
  }

  /** The trace of this request: its handlers, the calls to the services and every log line run in it. */
  traceOf(request: FastifyRequest): TraceContext | undefined {
    return this.spans.get(request)?.context;
  }
}
