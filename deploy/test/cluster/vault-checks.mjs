// The vault on the real node (issue "Kubernetes for real", its must-show
// lines), in one release and in this order, each step printed:
//
//   install  helm install --wait: the migration Jobs, every pod Ready
//   1        through the gateway Service: sign-in, a target, a journal entry,
//            a photo uploaded to its presigned URL and served back, the access log
//   3        an upgrade whose migration fails: release failed, the old pods
//            serving; helm rollback restores it
//   4        the private NATS restarted under a steady load: answers again
//            within 10 s of its return, no pod restarted
//   2        2 replicas of every app: a pod of each deleted in turn under
//            50 req/s of mixed load, then a rolling upgrade under the same
//            load: no failed request, no lost write
//   1, 2     self-destruct (with 2 replicas after 2): confirmed, and every
//            service's data gone from PostgreSQL, Redis and the bucket
//
// Each part after the install and the sign-in is one of SECTIONS: --quick runs
// round-trip and self-destruct, --only the ones it names (run.mjs).
import { hash } from '@node-rs/argon2';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { describeLags, describeTimeline, watchEndpointLag } from './endpoint-lag.mjs';
import { forgetTargets, GatewayClient, steadyLoad, summarize, ONE_PIXEL_PNG as PNG } from './gateway-client.mjs';
import { restrictedNamespace } from './api-checks.mjs';
import { WORK } from './cluster.mjs';
import { DISTRIBUTED_APPS as APPS, SERVICE_NAMES as SERVICES, databaseVariableOf } from '../../../scripts/lib/services.mjs';

const NS = 'vault';
const RELEASE = 'vault';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** The parts of the checks after the install and the sign-in, in their order. */
export const SECTIONS = ['round-trip', 'failed-migration', 'nats-restart', 'pod-deletions', 'rolling-upgrade', 'self-destruct'];
export const QUICK_SECTIONS = ['round-trip', 'self-destruct'];

/** sections: the SECTIONS to run (the install and the sign-in always run). */
export async function vaultChecks({ stores, helm, helmPath, kubeEnv, kubectl, kubectlPath, check, step, log, sections = SECTIONS }) {
  const runs = (section) => sections.includes(section);
  const password = `${randomBytes(12).toString('base64url')}-k8s`;
  const release = releaseTools({ stores, helm, helmPath, kubeEnv, kubectl });
  const { helmAsync, upgrade, pods, ready, restarts, releaseStatus } = release;

  await step('namespace (Pod Security "restricted" enforced) and the Secret of the existing stores', () => storesSecret({ stores, kubectl, password }));
  if (!(await install({ ...release, stores, kubectl, check, step, log }))) return;
  const owner = await signIn({ kubectl, check, log, password });
  if (runs('round-trip')) await roundTrip({ owner, stores, check });
  if (runs('failed-migration')) await failedMigration({ owner, helmAsync, upgrade, kubectl, check, step, pods, ready, releaseStatus });
  if (runs('nats-restart')) await natsRestart({ owner, stores, check, step, restarts, pods, ready, log });
  if (runs('pod-deletions') || runs('rolling-upgrade')) {
    const endpointLag = () =>
      watchEndpointLag({
        kubectlPath,
        kubeconfig: kubeEnv.KUBECONFIG,
        namespace: NS,
        selector: 'app.kubernetes.io/component=gateway',
        service: `${NS}/${RELEASE}-gateway`,
      });
    await twoReplicas({ owner, upgrade, kubectl, check, step, pods, ready, log, runs, endpointLag });
  }
  if (runs('self-destruct')) await selfDestruct({ owner, stores, check, pods, password });
}

/** helm and kubectl as the checks use them on the release: its upgrades, its pods, its status. */
function releaseTools({ stores, helm, helmPath, kubeEnv, kubectl }) {
  const baseValues = ['-f', 'deploy/test/cluster/values.yaml', '--set', `s3.bucket=${stores.bucket}`];
  /** helm without blocking: the Jobs are watched while it waits. */
  const helmAsync = (args) =>
    new Promise((resolve) => {
      const child = spawn(helmPath, args, { env: kubeEnv });
      let output = '';
      child.stdout.on('data', (c) => (output += c));
      child.stderr.on('data', (c) => (output += c));
      child.on('exit', (code) => resolve({ code, output }));
    });
  /** helm upgrade of the release: the test's values, then `settings`; waits up to `timeout`. */
  const upgrade = (settings, timeout) => helmAsync(['upgrade', RELEASE, 'deploy/helm', '-n', NS, ...baseValues, ...settings, '--wait', '--timeout', timeout]);
  const pods = () =>
    JSON.parse(kubectl(['get', 'pods', '-n', NS, '-o', 'json']).stdout).items.filter((p) => !p.metadata.labels?.['job-name'] && !p.metadata.deletionTimestamp);
  const ready = (pod) => pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
  const restarts = () => Object.fromEntries(pods().map((p) => [p.metadata.name, (p.status.containerStatuses ?? []).reduce((n, c) => n + c.restartCount, 0)]));
  const releaseStatus = () => JSON.parse(helm(['status', RELEASE, '-n', NS, '-o', 'json']).stdout);
  return { baseValues, helmAsync, upgrade, pods, ready, restarts, releaseStatus };
}

/** The namespace, and the Secret holding what the existing stores need: the owner's hash, the master key, the URLs. */
async function storesSecret({ stores, kubectl, password }) {
  const ownerHash = await hash(password, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
  const urls = stores.urls;
  const stringData = {
    VAULT_OWNER_PASSWORD_HASH: ownerHash,
    VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
    REDIS_URL: urls.redis,
    S3_ACCESS_KEY_ID: stores.s3Credentials.accessKey,
    S3_SECRET_ACCESS_KEY: stores.s3Credentials.secretKey,
    ...Object.fromEntries(SERVICES.map((s) => [databaseVariableOf(s), urls.database(s)])),
    // For the failing migration (check 3): a database that does not exist.
    BROKEN_DATABASE_URL: urls.database('planner').replace(/\/vault_k8s_planner$/, '/vault_k8s_missing'),
  };
  kubectl(['apply', '-f', '-'], {
    input: JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [restrictedNamespace(NS), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'vault-secrets', namespace: NS }, type: 'Opaque', stringData }],
    }),
  });
}

// ------------------------------------------------------------------ install
/** helm install --wait and what it must leave: the migration Jobs succeeded, every pod Ready. False when the install failed. */
async function install({ baseValues, helmAsync, pods, ready, restarts, releaseStatus, stores, kubectl, check, step, log }) {
  const jobsSeen = new Map();
  const watchJobs = () => {
    for (const job of JSON.parse(kubectl(['get', 'jobs', '-n', NS, '-o', 'json'], { allowFail: true }).stdout || '{"items":[]}').items) {
      jobsSeen.set(job.metadata.name, job.status.succeeded ? 'succeeded' : job.status.failed ? `failed ${job.status.failed}` : 'running');
    }
  };
  const installed = await step('helm install --wait (production-shaped values: deploy/test/cluster/values.yaml)', async () => {
    const watcher = setInterval(watchJobs, 500);
    const result = await helmAsync(['install', RELEASE, 'deploy/helm', '-n', NS, ...baseValues, '--wait', '--timeout', '10m']);
    clearInterval(watcher);
    if (result.code !== 0) {
      log(`  pods:\n${kubectl(['get', 'pods', '-n', NS, '-o', 'wide'], { allowFail: true }).stdout}`);
      throw new Error(`helm install: ${result.output.trim()}`);
    }
    return `revision ${releaseStatus().version}`;
  });
  await check('the node is Ready (kubelet of deploy/test/cluster/versions.env)', () => {
    const nodeInfo = JSON.parse(kubectl(['get', 'nodes', '-o', 'json']).stdout).items.map(
      (n) => `${n.metadata.name} ${n.status.nodeInfo.kubeletVersion} Ready=${n.status.conditions.find((c) => c.type === 'Ready').status}`,
    );
    assert(nodeInfo.length === 1 && nodeInfo[0].endsWith('Ready=True'), nodeInfo.join(', '));
    return nodeInfo[0];
  });
  await check('helm install --wait: deployed, after a migration Job per service', async () => {
    assert(releaseStatus().info.status === 'deployed', `release ${releaseStatus().info.status}`);
    const expected = SERVICES.map((s) => `${RELEASE}-migrate-${s}`);
    // A succeeded hook Job is deleted at once (hook-succeeded); its "Completed" event stays.
    const events = JSON.parse(kubectl(['get', 'events', '-n', NS, '-o', 'json']).stdout).items;
    for (const e of events) if (e.involvedObject.kind === 'Job' && e.reason === 'Completed') jobsSeen.set(e.involvedObject.name, 'succeeded');
    const missing = expected.filter((name) => jobsSeen.get(name) !== 'succeeded');
    assert(missing.length === 0, `Jobs not seen to succeed: ${missing.map((m) => `${m} (${jobsSeen.get(m) ?? 'never seen'})`).join(', ')}`);
    // The services start with VAULT_SKIP_MIGRATIONS=true: the schemas are the Jobs' work.
    for (const service of SERVICES) {
      const tables = await stores.admin(
        (db) => db.query('select count(*)::int as n from information_schema.tables where table_schema = $1', [service]),
        `vault_k8s_${service}`,
      );
      assert(tables.rows[0].n > 0, `no tables in the schema ${service}`);
    }
    return [...jobsSeen].map(([name, state]) => `${name} ${state}`).join(', ');
  });
  await check('all pods Ready on their probes, none restarted', () => {
    const all = pods();
    const byApp = APPS.map((app) => all.filter((p) => p.metadata.labels['app.kubernetes.io/component'] === app));
    assert(
      byApp.every((list) => list.length >= 1 && list.every(ready)),
      all.map((p) => `${p.metadata.name} ready=${ready(p)}`).join(', '),
    );
    const restarted = Object.entries(restarts()).filter(([, n]) => n > 0);
    assert(restarted.length === 0, `restarted: ${restarted.map(([p, n]) => `${p} x${n}`).join(', ')}`);
    return all.map((p) => p.metadata.name).join(', ');
  });
  return installed;
}

// ------------------------------------------------------------------ 1: the vault through the gateway Service
/** The web app through the gateway Service, and the owner signed in: the client every later section uses. */
async function signIn({ kubectl, check, log, password }) {
  const address = kubectl(['get', 'service', `${RELEASE}-gateway`, '-n', NS, '-o', 'jsonpath={.spec.clusterIP}']).stdout.trim();
  const owner = new GatewayClient(address);
  log(`  the gateway Service: http://${address}/ (Host ${'vault.k8s.test'})`);
  await check('GET / through the gateway Service serves the web app', async () => {
    const page = await owner.send('GET', '/');
    assert(page.status === 200 && page.text.includes('<title>VAULT</title>'), `${page.status} ${page.text.slice(0, 200)}`);
    return `${page.status}, ${page.text.length} bytes`;
  });
  await check('sign-in as the owner (password hash from the Secret)', async () => {
    await owner.login('owner', password);
    const user = await owner.send('GET', '/api/user');
    assert(user.status === 200 && user.json?.signedIn === true, `${user.status} ${user.text}`);
    return `session cookie ${owner.cookie.split('=')[0]}`;
  });
  return owner;
}

async function roundTrip({ owner, stores, check }) {
  await check('a target: created and listed (planner-svc)', async () => {
    const created = await owner.send('POST', '/api/targets', { title: 'Cluster target' });
    assert(created.status < 300 && created.json?.id, `${created.status} ${created.text}`);
    const listed = await owner.send('GET', '/api/targets');
    assert(
      listed.json?.some((t) => t.id === created.json.id && t.title === 'Cluster target'),
      `not listed: ${listed.text.slice(0, 300)}`,
    );
    return created.json.id;
  });
  await check('a journal entry: written and read back decrypted (journal-svc, the master key from the Secret)', async () => {
    const created = await owner.send('POST', '/api/journal', { content: 'Written on a real node.' });
    assert(created.status < 300 && created.json?.id, `${created.status} ${created.text}`);
    const listed = await owner.send('GET', '/api/journal');
    assert(
      listed.json?.some((e) => e.id === created.json.id && e.content === 'Written on a real node.'),
      `not read back: ${listed.text.slice(0, 300)}`,
    );
    return created.json.id;
  });
  await check('a photo: uploaded to its presigned URL, registered, served back through the gateway (media-svc, the bucket)', async () => {
    const issued = await owner.send('POST', '/api/objects/upload');
    assert(issued.status === 200 && issued.json?.uploadURL, `${issued.status} ${issued.text}`);
    const put = await fetch(issued.json.uploadURL, { method: 'PUT', body: PNG, headers: { 'content-type': 'image/png', ...issued.json.uploadHeaders } });
    assert(put.status === 200, `PUT to the presigned URL: ${put.status} ${await put.text()}`);
    const registered = await owner.send('PUT', '/api/photos', { photoURL: issued.json.uploadURL });
    assert(registered.status === 200 && registered.json?.objectPath, `${registered.status} ${registered.text}`);
    const served = await owner.send('GET', registered.json.objectPath);
    assert(served.status === 200 && served.buffer.equals(PNG), `GET ${registered.json.objectPath}: ${served.status}, ${served.buffer.length} bytes`);
    const keys = await stores.bucketKeys();
    assert(keys.length >= 1, 'the bucket holds nothing');
    return `PUT to ${new URL(issued.json.uploadURL).host}, served at ${registered.json.objectPath}; in the bucket: ${keys.join(', ')}`;
  });
  await check('the access log shows the sign-in (audit-svc, from JetStream)', async () => {
    for (let i = 0; i < 30; i++) {
      const logs = await owner.send('GET', '/api/logs');
      const signIn = logs.json?.find?.((l) => l.action === 'login_success');
      if (signIn) return `${logs.json.length} entries, login_success from ${signIn.ipAddress}`;
      await sleep(500);
    }
    throw new Error('no login_success in the access log within 15 s');
  });
}

// ------------------------------------------------------------------ self-destruct
async function selfDestruct({ owner, stores, check, pods, password }) {
  const replicas = pods().length;
  await check(`self-destruct (${replicas} pods): confirmed by every service`, async () => {
    // A drastic switch wants a sign-in of the last 5 minutes (spec: re-authentication); the sections
    // before take longer than that on a loaded node, so the owner gives the password again first.
    const again = await owner.send('POST', '/api/reauthenticate', { password });
    assert(again.status >= 200 && again.status < 300, `re-authentication: ${again.status} ${again.text}`);
    const destroyed = await owner.send('POST', '/api/settings/self-destruct', undefined, { timeoutMs: 30_000 });
    assert(destroyed.status === 200 && destroyed.json?.destroyed === true, `${destroyed.status} ${destroyed.text}`);
    return destroyed.text;
  });
  // No pause: a replica that did not take the self-destruct refuses an ended session with 410 at once and logs nothing.
  await check("self-destruct erased every service's data: PostgreSQL, the bucket, Redis", async () => {
    const counts = await stores.rowCounts();
    const nonEmpty = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${t}=${n}`);
    // Only the destroyed mark itself, media-svc's watch for what old upload URLs still bring in, and the instant audit-svc drops older access events from.
    assert(
      JSON.stringify(nonEmpty) === JSON.stringify(['auth.vault_state=1', 'media.erasure_watch=1', 'audit.erasure=1']),
      `rows left: ${nonEmpty.join(', ')}`,
    );
    const keys = await stores.bucketKeys();
    assert(keys.length === 0, `the bucket still holds ${keys.join(', ')}`);
    const left = await stores.redis(['KEYS', 'vault:*']);
    assert(left.length === 0, `Redis still holds ${left.join(', ')}`);
    return `${Object.keys(counts).length} tables in 5 databases: only auth.vault_state, media.erasure_watch and audit.erasure hold a row; the bucket and Redis empty`;
  });
  await check('after self-destruct every gateway replica refuses: 410, and records nothing', async () => {
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push((await owner.send('GET', '/api/targets')).status);
    assert(
      answers.every((s) => s === 410),
      `GET /api/targets: ${answers.join(' ')}`,
    );
    const status = await owner.send('GET', '/api/system/status');
    assert(status.text === '{"destroyed":true}', status.text);
    const audit = await stores.rowCounts();
    assert(audit['audit.access_log'] === 0, `the access log has ${audit['audit.access_log']} rows again`);
    return `10 x 410 over new connections; status ${status.text}`;
  });
}

// ------------------------------------------------------------------ 3: a failing migration
async function failedMigration({ owner, helmAsync, upgrade, kubectl, check, step, pods, ready, releaseStatus }) {
  const before = pods()
    .map((p) => p.metadata.uid)
    .sort();
  const revision = releaseStatus().version;
  await step('helm upgrade whose planner migration fails (its Job gets a database that does not exist)', async () => {
    const result = await upgrade(['--set', 'secrets.databaseUrl.planner.key=BROKEN_DATABASE_URL', '--set', 'migrations.job.backoffLimit=0'], '4m');
    assert(result.code !== 0, 'the upgrade succeeded');
    return result.output.trim().split('\n').pop();
  });
  await check('after the failed migration: the release is failed, the old pods unchanged and serving', async () => {
    const status = releaseStatus();
    assert(status.info.status === 'failed', `release ${status.info.status}`);
    const now = pods();
    assert(JSON.stringify(now.map((p) => p.metadata.uid).sort()) === JSON.stringify(before) && now.every(ready), 'the pods changed');
    const targets = await owner.send('GET', '/api/targets');
    assert(targets.status === 200, `GET /api/targets: ${targets.status}`);
    const job = kubectl(['get', 'job', `${RELEASE}-migrate-planner`, '-n', NS, '-o', 'jsonpath={.status.failed}'], { allowFail: true }).stdout;
    return `revision ${status.version} failed; migrate-planner Job failed=${job || '?'} kept for its logs; GET /api/targets 200`;
  });
  await step(`helm rollback to revision ${revision}`, async () => {
    const result = await helmAsync(['rollback', RELEASE, String(revision), '-n', NS, '--wait', '--timeout', '4m']);
    assert(result.code === 0, result.output);
  });
  await check('after helm rollback: deployed again, every pod Ready, the vault answers', async () => {
    const status = releaseStatus();
    assert(status.info.status === 'deployed', `release ${status.info.status}`);
    const all = pods();
    assert(all.every(ready), 'not every pod Ready');
    const env = kubectl([
      'get',
      'deployment',
      `${RELEASE}-planner-svc`,
      '-n',
      NS,
      '-o',
      'jsonpath={.spec.template.spec.containers[0].env[?(@.name=="DATABASE_URL")].valueFrom.secretKeyRef.key}',
    ]).stdout;
    assert(env === 'PLANNER_DATABASE_URL', `planner-svc reads ${env}`);
    const created = await owner.send('POST', '/api/targets', { title: 'After the rollback' });
    assert(created.status < 300, `POST /api/targets: ${created.status}`);
    return `revision ${status.version} deployed, planner-svc on PLANNER_DATABASE_URL, a write accepted`;
  });
}

// ------------------------------------------------------------------ 4: the broker restarted
async function natsRestart({ owner, stores, check, step, restarts, pods, ready, log }) {
  const restartsBefore = restarts();
  let returnedAt;
  const load = steadyLoad(owner, { rate: 50 });
  await step('steady load (50 req/s); the private NATS stopped for 5 s, then started again', async () => {
    await sleep(5000);
    await stores.stopNats();
    log('  NATS stopped');
    await sleep(5000);
    await stores.startNats();
    returnedAt = Date.now();
    log('  NATS back');
    await sleep(20_000);
  });
  const { results, writes } = await load.stop();
  await forgetTargets(owner, writes);
  await check('NATS restarted under load: answers again within 10 s of its return, no pod restarted', () => {
    const failedAfter = results.filter((r) => !r.ok && r.started >= returnedAt);
    const recovery = failedAfter.length ? (Math.max(...failedAfter.map((r) => r.started)) - returnedAt) / 1000 : 0;
    const lastTen = results.filter((r) => r.started >= returnedAt + 10_000);
    assert(
      recovery <= 10 && lastTen.length > 0 && lastTen.every((r) => r.ok),
      `last failure ${recovery.toFixed(1)} s after NATS returned: ${JSON.stringify(summarize(failedAfter).groups)}`,
    );
    const restartsAfter = restarts();
    const restarted = Object.keys(restartsAfter).filter((p) => restartsAfter[p] !== restartsBefore[p]);
    assert(restarted.length === 0, `restarted: ${restarted.join(', ')}`);
    assert(pods().every(ready), 'not every pod Ready');
    const summary = summarize(results);
    return `recovered ${recovery.toFixed(1)} s after its return; ${summary.total} requests, ${summary.failed} failed while it was away or coming back; no restart`;
  });
}

// ------------------------------------------------------------------ 2: two replicas under load
async function twoReplicas({ owner, upgrade, kubectl, check, step, pods, ready, log, runs, endpointLag }) {
  const twoOfEach = ['--set', 'gateway.replicas=2', ...SERVICES.flatMap((s) => ['--set', `services.${s}.replicas=2`])];
  await step('helm upgrade to 2 replicas of every app', async () => {
    const result = await upgrade(twoOfEach, '6m');
    assert(result.code === 0, result.output);
    return `${pods().length} pods`;
  });
  const allReady = async (seconds) => {
    for (let i = 0; i < seconds * 2; i++) {
      const all = pods();
      if (APPS.every((app) => all.filter((p) => p.metadata.labels['app.kubernetes.io/component'] === app && ready(p)).length >= 2)) return;
      await sleep(500);
    }
    throw new Error(`not 2 Ready pods of each app within ${seconds} s`);
  };
  await allReady(120);

  const lostWrites = async (writes) => {
    const targets = new Set(((await owner.send('GET', '/api/targets')).json ?? []).map((t) => t.id));
    const entries = new Set();
    for (let offset = 0; ; offset += 500) {
      const page = (await owner.send('GET', `/api/journal?limit=500&offset=${offset}`)).json ?? [];
      for (const e of page) entries.add(e.id);
      if (page.length < 500) break;
    }
    // A target whose removal failed (counted as a failed request) may be gone: a timed-out removal can still be done.
    return writes.filter((w) => !w.removing && !(w.path === '/api/targets' ? targets : entries).has(w.id));
  };

  /**
   * A steady load's outcome: every request answered, every write found afterwards, at 50 req/s. A failure
   * names each failed request's time among the gateway pods' and kube-proxy's changes (`timeline`).
   */
  const noFailureNoLoss = async (results, writes, timeline) => {
    const summary = summarize(results);
    const lost = await lostWrites(writes);
    const machineLoad = loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    const origin = Math.min(...results.map((r) => r.started));
    assert(
      summary.failed === 0 && lost.length === 0,
      `${summary.failed} of ${summary.total} failed ${JSON.stringify(summary.groups)}; ${lost.length} writes lost (machine load ${machineLoad}); ` +
        `since the load began:\n${describeTimeline(
          timeline,
          results.filter((r) => !r.ok),
          origin,
        )}`,
    );
    assert(summary.rate >= 45, `the load ran at ${summary.rate.toFixed(1)} req/s, not 50`);
    return summary;
  };
  // The kubelet's wait before it stops a gateway pod: every stopped pod must have left kube-proxy's rules within it.
  const preStopSeconds = Number(
    kubectl(['get', 'deployment', `${RELEASE}-gateway`, '-n', NS, '-o', 'jsonpath={.spec.template.spec.containers[0].lifecycle.preStop.sleep.seconds}']).stdout,
  );
  const coveredByPreStop = (lags) => {
    const late = lags.filter((l) => l.lag === undefined || l.lag >= preStopSeconds);
    assert(late.length === 0, `gateway pods still in kube-proxy's rules after the ${preStopSeconds} s preStop wait: ${describeLags(late)}`);
    return `the stopped gateway pods left kube-proxy's rules ${describeLags(lags)} after they were told to stop (preStop ${preStopSeconds} s)`;
  };

  const section = { owner, upgrade, kubectl, check, step, pods, log, endpointLag, twoOfEach, allReady, noFailureNoLoss, coveredByPreStop };
  if (runs('pod-deletions')) await podDeletions(section);
  if (runs('rolling-upgrade')) await rollingUpgrade(section);
}

/** Under a steady load, one pod of each app deleted in turn. */
async function podDeletions({ owner, kubectl, check, step, pods, log, endpointLag, allReady, noFailureNoLoss, coveredByPreStop }) {
  const { results, writes, lags, timeline } = await underSteadyLoad(
    { owner, step, pods, endpointLag },
    'pod-deletions',
    'one pod of each app deleted in turn',
    async () => {
      for (const app of APPS) {
        const victim = pods().find((p) => p.metadata.labels['app.kubernetes.io/component'] === app);
        const began = Date.now();
        kubectl(['delete', 'pod', victim.metadata.name, '-n', NS, '--wait=true'], { timeout: 120_000 });
        await allReady(120);
        log(`  ${victim.metadata.name} deleted, its replacement Ready in ${((Date.now() - began) / 1000).toFixed(1)} s`);
      }
    },
  );
  await check('pod deletions under load: 0 failed requests, 0 lost writes', async () => {
    const summary = await noFailureNoLoss(results, writes, timeline);
    return `${summary.total} requests in ${summary.seconds.toFixed(0)} s (${summary.rate.toFixed(1)}/s, the slowest answered in ${summary.slowestAnswered.toFixed(1)} s: ${summary.slowestWhat}), ${writes.length} writes all found`;
  });
  await check("pod deletions: the deleted gateway pod left kube-proxy's rules within its preStop wait", () => coveredByPreStop(lags));
  await forgetTargets(owner, writes);
}

/** Under a steady load, a changed setting rolling every Deployment. */
async function rollingUpgrade({ owner, upgrade, kubectl, check, step, pods, endpointLag, twoOfEach, noFailureNoLoss, coveredByPreStop }) {
  // Creation times are whole seconds: a pod made in the second the roll began counts as new.
  const rollStarted = Math.floor(Date.now() / 1000) * 1000;
  // A changed setting changes the ConfigMap's checksum in every pod template: all six Deployments roll.
  const { results, writes, lags, timeline } = await underSteadyLoad(
    { owner, step, pods, endpointLag },
    'rolling-upgrade',
    'a rolling upgrade (config.lockout.failures=6 rolls every Deployment)',
    async () => {
      const result = await upgrade([...twoOfEach, '--set', 'config.lockout.failures=6'], '8m');
      assert(result.code === 0, result.output);
    },
  );
  await check('rolling upgrade under load: 0 failed requests, 0 lost writes', async () => {
    const summary = await noFailureNoLoss(results, writes, timeline);
    const failures = kubectl(['get', 'configmap', `${RELEASE}-config`, '-n', NS, '-o', 'jsonpath={.data.VAULT_LOCKOUT_FAILURES}']).stdout;
    const rolled = pods().filter((p) => Date.parse(p.metadata.creationTimestamp) >= rollStarted).length;
    assert(failures === '6' && rolled === 12, `VAULT_LOCKOUT_FAILURES=${failures}, ${rolled} of 12 pods new`);
    return `${summary.total} requests in ${summary.seconds.toFixed(0)} s (${summary.rate.toFixed(1)}/s, the slowest answered in ${summary.slowestAnswered.toFixed(1)} s: ${summary.slowestWhat}), ${writes.length} writes all found; all 12 pods replaced`;
  });
  await check("rolling upgrade: each replaced gateway pod left kube-proxy's rules within its preStop wait", () => coveredByPreStop(lags));
  await forgetTargets(owner, writes);
}

/**
 * `action` as one step under a steady load of 50 requests a second (3 s of it
 * before and after), the gateway pods' endpoint lag watched all along: the
 * load's answers and writes, the lags and the watch's timeline. Failed answers are kept for diagnosis.
 */
async function underSteadyLoad({ owner, step, pods, endpointLag }, name, what, action) {
  const load = steadyLoad(owner, { rate: 50 });
  const lagWatch = endpointLag();
  await step(`steady load (50 req/s); ${what}`, async () => {
    await sleep(3000);
    await action();
    await sleep(3000);
  });
  const { lags, timeline } = await lagWatch.stop();
  const { results, writes } = await load.stop();
  keepForDiagnosis(name, results, pods(), timeline);
  return { results, writes, lags, timeline };
}

/** A load's answers, the watch's timeline and the pods' start times and CPU throttling, beside the logs a failed run keeps. */
function keepForDiagnosis(name, results, podList, timeline) {
  const failed = results.filter((r) => !r.ok);
  if (failed.length === 0) return;
  const throttling = {};
  for (const pod of podList) {
    const stat = `/sys/fs/cgroup/cpu/kubepods/${pod.status.qosClass.toLowerCase()}/pod${pod.metadata.uid}/cpu.stat`;
    try {
      throttling[pod.metadata.name] = readFileSync(stat, 'utf8').trim().replaceAll('\n', ', ');
    } catch {
      throttling[pod.metadata.name] = 'no cpu.stat';
    }
  }
  const started = Math.min(...results.map((r) => r.started));
  writeFileSync(
    join(WORK, 'logs', `load-${name}.json`),
    JSON.stringify(
      {
        started: new Date(started).toISOString(),
        failed: failed.map((r) => ({ ...r, at: (r.started - started) / 1000, took: (r.ended - r.started) / 1000 })),
        timeline: timeline.map((e) => ({ at: (e.at - started) / 1000, what: e.what })),
        pods: podList.map((p) => ({
          name: p.metadata.name,
          created: p.metadata.creationTimestamp,
          ready: p.status.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime,
        })),
        throttling,
      },
      null,
      2,
    ),
  );
}
