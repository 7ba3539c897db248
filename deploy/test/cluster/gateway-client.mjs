// Requests to the vault through the gateway Service's ClusterIP, as a client
// behind the ingress would send them: the Host (and, for writes, the Origin)
// is the name the chart was given (gateway.allowedHosts), while the TCP
// connection goes to the Service's address, a new connection per request so
// that kube-proxy spreads them over the pods. Plus a steady mixed load.
import { request } from 'node:http';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

export const HOST = 'vault.k8s.test';

/** A 1x1 PNG: the photo the checks upload. */
export const ONE_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export class GatewayClient {
  /** `host`: the name requests carry (Host, and Origin for writes); the chart's test name by default. */
  constructor(address, port = 80, host = HOST) {
    this.address = address;
    this.port = port;
    this.host = host;
    this.cookie = '';
  }

  /** One request; resolves { status, text, json, headers } or rejects on a network error. */
  send(method, path, body, { timeoutMs = 10_000, headers = {} } = {}) {
    const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.address,
          port: this.port,
          method,
          path,
          agent: false,
          timeout: timeoutMs,
          headers: {
            host: this.host,
            origin: `http://${this.host}`,
            ...(this.cookie ? { cookie: this.cookie } : {}),
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const buffer = Buffer.concat(chunks);
            const text = buffer.toString('utf8');
            let json;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode, text, json, buffer, headers: res.headers });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  async login(username, password) {
    const res = await this.send('POST', '/api/login', { username, password });
    if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${res.text}`);
    this.cookie = [res.headers['set-cookie'] ?? []]
      .flat()
      .map((c) => c.split(';')[0])
      .join('; ');
    return res;
  }
}

/**
 * A steady mixed load at `rate` requests per second until stop(): reads of targets, the
 * journal, the user and the access log, and writes (new targets, journal entries, and the
 * removal of the load's own oldest target every other time a target is written). The list
 * the reads fetch whole thus stays the size an owner's is, however long the load runs (a
 * list that grew by 2.5 targets a second made a slow run slower still); the caller removes
 * the targets left afterwards (forgetTargets). It runs in a worker thread, so that the
 * test's synchronous calls (kubectl, helm) never slow it. Every answer is recorded with its
 * time; a write that answered 2xx is remembered, to be found again, unless the load removed
 * it (its removal's 2xx found it).
 */
export function steadyLoad(client, { rate = 50 } = {}) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { address: client.address, port: client.port, cookie: client.cookie, rate } });
  const finished = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const result = await finished;
      await worker.terminate();
      return result;
    },
  };
}

/** The load itself, in the worker: one request every 1000/rate ms, none waiting for another. */
async function runLoad({ address, port, cookie, rate }) {
  const client = new GatewayClient(address, port);
  client.cookie = cookie;
  const results = [];
  const writes = [];
  // Every service in the mix: planner (targets), journal, audit (the log), auth (the user); 30 % writes.
  const mix = [
    ['GET', '/api/targets'],
    ['GET', '/api/journal?limit=20'],
    ['POST', '/api/journal'],
    ['GET', '/api/user'],
    ['POST', '/api/targets'],
    ['GET', '/api/targets'],
    ['GET', '/api/logs?limit=5'],
    ['POST', '/api/journal'],
    ['GET', '/api/journal/count'],
    ['GET', '/api/journal?limit=20'],
  ];
  const inFlight = new Set();
  let sequence = 0;
  const began = Date.now();
  /** Of each two target writes, the second removes the oldest target the load made and still has, if any. */
  let targetWrites = 0;
  const removal = () => {
    if (targetWrites++ % 2 === 0) return undefined;
    const index = writes.findIndex((w) => w.path === '/api/targets' && w.id && !w.removing);
    if (index < 0) return undefined;
    writes[index].removing = true;
    return writes[index];
  };
  const fire = () => {
    const n = sequence++;
    let [method, path] = mix[n % mix.length];
    const removed = method === 'POST' && path === '/api/targets' ? removal() : undefined;
    if (removed) [method, path] = ['DELETE', `/api/targets/${removed.id}`];
    const body = method === 'POST' ? (path === '/api/targets' ? { title: `load ${n}` } : { content: `load entry ${n}` }) : undefined;
    const started = Date.now();
    const done = client
      .send(method, path, body, { timeoutMs: 20_000 })
      .then((res) => {
        results.push({
          n,
          method,
          path: removed ? '/api/targets/:id' : path,
          started,
          ended: Date.now(),
          status: res.status,
          ok: res.status < 400,
          detail: res.status < 400 ? '' : res.text.slice(0, 160),
        });
        if (method === 'POST' && res.status < 300) writes.push({ path, id: res.json?.id });
        if (removed && res.status < 300) writes.splice(writes.indexOf(removed), 1);
      })
      .catch((error) => results.push({ n, method, path, started, ended: Date.now(), status: 0, ok: false, detail: error.message }))
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  };
  // Paced by the clock, not by the timer's drift: request n leaves at began + n * interval.
  const timer = setInterval(() => {
    while (sequence <= ((Date.now() - began) * rate) / 1000) fire();
  }, 5);
  await new Promise((resolve) => parentPort.once('message', resolve));
  clearInterval(timer);
  await Promise.all([...inFlight]);
  parentPort.postMessage({ results, writes });
}
if (!isMainThread && workerData?.rate) runLoad(workerData);

/** Failed answers of a load, grouped by status and path, for the report. */
export function summarize(results) {
  const failed = results.filter((r) => !r.ok);
  const groups = {};
  for (const r of failed) {
    const key = `${r.status || 'network'} ${r.method} ${r.path.split('?')[0]}`;
    // How long the failed ones took tells a timeout (the gateway's RPC timeout) from a refusal at once.
    const took = Math.round((r.ended - r.started) / 100) / 10;
    groups[key] ??= { count: 0, detail: r.detail, tookSeconds: [took, took] };
    groups[key].count++;
    groups[key].tookSeconds = [Math.min(groups[key].tookSeconds[0], took), Math.max(groups[key].tookSeconds[1], took)];
  }
  const seconds = results.length ? (Math.max(...results.map((r) => r.ended)) - Math.min(...results.map((r) => r.started))) / 1000 : 0;
  // How near the answered came to the timeout (a dropped request fails at it, a slow one comes close), and which it was.
  const slowest = results.filter((r) => r.ok).reduce((worst, r) => (!worst || r.ended - r.started > worst.ended - worst.started ? r : worst), undefined);
  const slowestAnswered = slowest ? (slowest.ended - slowest.started) / 1000 : 0;
  const began = results.length ? Math.min(...results.map((r) => r.started)) : 0;
  const slowestWhat = slowest ? `${slowest.method} ${slowest.path.split('?')[0]} sent at ${((slowest.started - began) / 1000).toFixed(1)} s` : '';
  return { total: results.length, failed: failed.length, seconds, rate: seconds ? results.length / seconds : 0, groups, slowestAnswered, slowestWhat };
}

/**
 * Deletes the targets a load made (found again by then), one at a time. One whose removal by the load
 * failed (already counted as a failed request) may be gone or not.
 */
export async function forgetTargets(client, writes) {
  for (const { path, id, removing } of writes) {
    if (path !== '/api/targets' || !id) continue;
    const res = await client.send('DELETE', `/api/targets/${id}`);
    if (res.status >= 300 && !(removing && res.status === 404)) throw new Error(`DELETE /api/targets/${id}: ${res.status} ${res.text}`);
  }
}
