import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as an OTLP/HTTP JSON export carries it, with the service.name of its resource. */
export interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

/** OTLP/JSON ids are hex; a base64 one (protobuf's JSON mapping) is turned into hex too. */
const hex = (id: string | undefined) => (id === undefined || id === '' ? undefined : /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex'));

/**
 * A stand-in for an OpenTelemetry collector: a tiny HTTP server on 127.0.0.1
 * that takes OTLP/HTTP JSON exports on /v1/traces and keeps them, raw and
 * read, for a test to look at.
 */
export class OtlpCollector {
  private server?: Server;
  readonly bodies: string[] = [];
  readonly spans: CollectedSpan[] = [];

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/traces') {
          response.writeHead(404).end();
          return;
        }
        const raw = Buffer.concat(chunks);
        const body = (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        this.bodies.push(body);
        this.read(JSON.parse(body));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /** Waits until the spans collected satisfy `ready`, or fails after `withinMs`. */
  async waitFor(ready: (spans: CollectedSpan[]) => boolean, withinMs = 15_000): Promise<CollectedSpan[]> {
    const deadline = Date.now() + withinMs;
    while (!ready(this.spans)) {
      if (Date.now() > deadline) throw new Error(`the collector did not receive the spans expected; it has: ${JSON.stringify(this.spans, null, 1)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return this.spans;
  }

  private read(exported: {
    resourceSpans?: Array<{
      resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
      scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
    }>;
  }) {
    for (const resourceSpans of exported.resourceSpans ?? []) {
      const service = resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          this.spans.push({
            service,
            traceId: hex(span.traceId as string)!,
            spanId: hex(span.spanId as string)!,
            parentSpanId: hex(span.parentSpanId as string | undefined),
            name: span.name as string,
            kind: span.kind as number,
          });
    }
  }
}
