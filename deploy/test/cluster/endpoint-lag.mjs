// How late a stopping pod leaves the node's kube-proxy rules: the race the
// gateway's preStop wait must cover (issue 31). A pod told to stop (deleted,
// or replaced by a rolling upgrade) is taken out of its Service's endpoints
// at once, but kube-proxy rewrites the node's iptables rules only later
// (seconds on a busy machine); until then new connections to the Service's
// address still reach the pod, which must answer them.
//
// It watches the pods (kubectl get --watch: when each was told to stop) and
// polls kube-proxy's rules (iptables-save: the Service chain's jumps, each
// commented "<namespace>/<service>:<port> -> <pod address>:<port>"), and
// gives each stopped pod's lag: from the moment it was told to stop to the
// first look at the rules without it.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const run = promisify(execFile);
const POLL_MS = 100;

/** The pod addresses in the node's kube-proxy rules for `service` ("namespace/name"). */
export async function addressesInRules(service) {
  const { stdout } = await run('iptables-save', ['-t', 'nat'], { maxBuffer: 16 * 1024 * 1024 });
  const addresses = new Set();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('-A KUBE-SVC-')) continue;
    const [, servicePort, address] = /--comment "([^"]+) -> ([\d.]+):\d+"/.exec(line) ?? [];
    if (servicePort?.startsWith(`${service}:`)) addresses.add(address);
  }
  return addresses;
}

/**
 * Starts watching the pods of `selector` in `namespace` and the rules of `service`, in a worker thread so that
 * the test's synchronous calls (kubectl, helm) never delay a look. stop() gives `lags`, each pod told to stop
 * meanwhile: its name, address and lag in seconds (undefined: still in the rules when the watch ended); and
 * `timeline`, what a failed request is read against: every change of the rules' addresses and of a pod's
 * address, readiness or deletion, each with its time (ms since the epoch).
 */
export function watchEndpointLag(options) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { endpointLag: options } });
  const finished = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const watched = await finished;
      await worker.terminate();
      return watched;
    },
  };
}

/** The watch itself, in the worker. */
async function watch({ kubectlPath, kubeconfig, namespace, selector, service }) {
  /** @type {Map<string, { name: string, address: string, toldAt: number, leftAt?: number }>} by address */
  const stopping = new Map();
  const pods = spawn(
    kubectlPath,
    [
      '--kubeconfig',
      kubeconfig,
      'get',
      'pods',
      '-n',
      namespace,
      '-l',
      selector,
      '--watch',
      '-o',
      'jsonpath={.metadata.name}|{.status.podIP}|{.metadata.deletionTimestamp}|{.status.conditions[?(@.type=="Ready")].status}{"\\n"}',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  /** @type {{ at: number, what: string }[]} */
  const timeline = [];
  /** @type {Map<string, string>} a pod's last state as the timeline says it, by name */
  const podStates = new Map();
  let partial = '';
  pods.stdout.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const [name, address, deletion, ready] = line.trim().split('|');
      if (!name) continue;
      const state = `pod ${name} ${address || 'no address'}${ready === 'True' ? ' ready' : ' not ready'}${deletion ? ', told to stop' : ''}`;
      if (podStates.get(name) !== state) {
        podStates.set(name, state);
        timeline.push({ at: Date.now(), what: state });
      }
      if (address && deletion && !stopping.has(address)) stopping.set(address, { name, address, toldAt: Date.now() });
    }
  });
  let polling = true;
  let lastRules = '';
  parentPort.once('message', () => (polling = false));
  while (polling) {
    const inRules = await addressesInRules(service).catch(() => undefined);
    const now = Date.now();
    if (inRules) {
      for (const pod of stopping.values()) if (pod.leftAt === undefined && !inRules.has(pod.address)) pod.leftAt = now;
      const rules = `kube-proxy's rules: ${[...inRules].sort().join(', ') || 'no address'}`;
      if (rules !== lastRules) timeline.push({ at: now, what: rules });
      lastRules = rules;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  pods.kill();
  parentPort.postMessage({
    lags: [...stopping.values()].map(({ name, address, toldAt, leftAt }) => ({
      name,
      address,
      lag: leftAt === undefined ? undefined : (leftAt - toldAt) / 1000,
    })),
    timeline,
  });
}
if (!isMainThread && workerData?.endpointLag) watch(workerData.endpointLag);

/** "0.4 s, 1.9 s (pod-a still in the rules)": the lags of a watch, for a check's report. */
export function describeLags(lags) {
  return lags.map((l) => (l.lag === undefined ? `${l.name} still in the rules` : `${l.lag.toFixed(1)} s`)).join(', ') || 'no pod stopped';
}

/**
 * The timeline of a watch with the failed requests of a load, in order, each at its seconds since `origin`:
 * "+12.3 s kube-proxy's rules: 10.244.0.5", "+12.4 s failed: GET /api/logs (connect EHOSTUNREACH ..., 3.1 s)".
 */
export function describeTimeline(timeline, failed, origin) {
  const events = [
    ...timeline,
    ...failed.map((r) => ({
      at: r.started,
      what: `failed: ${r.method} ${r.path.split('?')[0]} (${r.status || r.detail}, ${((r.ended - r.started) / 1000).toFixed(1)} s)`,
    })),
  ].sort((a, b) => a.at - b.at);
  return events.map((e) => `+${((e.at - origin) / 1000).toFixed(1)} s ${e.what}`).join('\n');
}
