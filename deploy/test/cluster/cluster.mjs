// The one-node cluster of `npm run test:k8s`: every part a plain process on
// this machine (no VM, no kind, no k3s):
//
//   etcd, kube-apiserver                       always (the API-level checks need only these)
//   kube-controller-manager, kube-scheduler,   with a node: containerd runs the pods on a
//   containerd, kubelet, kube-proxy, CoreDNS     bridge of their own, kube-proxy makes the
//                                                Services reachable from this machine
//
// Network safety: pods live on the bridge vaultk8s0 (10.244.0.0/24, this
// machine at 10.244.0.1) and a rule in the mangle table's FORWARD chain drops
// whatever they send beyond it, so nothing from a pod leaves the machine;
// CoreDNS answers cluster names only (no forwarding); every image is local
// (imagePullPolicy Never, the sandbox image too), so no registry is asked.
//
// stop() undoes everything start() did, in reverse, and then checks that no
// process, mount, route, link, iptables rule or container is left; it also
// runs at the start of the next run if a killed run left anything.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { makePki, writeKubeconfig } from './pki.mjs';

export const NET = {
  bridge: 'vaultk8s0',
  podCidr: '10.244.0.0/24',
  nodeIp: '10.244.0.1',
  serviceCidr: '10.96.0.0/16',
  apiServiceIp: '10.96.0.1',
};
const PORTS = { etcd: 12379, etcdPeer: 12380, apiserver: 16443, kubelet: 10250 };
/** Fixed, so that a run finds and removes what a killed run left. */
export const WORK = '/tmp/vault-k8s';
const CONTAINERD_ROOT = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'vault/k8s/containerd');
const NODE_NAME = 'vault-node';
const DROP_RULE = ['FORWARD', '-i', NET.bridge, '!', '-d', NET.podCidr, '-j', 'DROP'];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const sh = (command, args, options = {}) => spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
function must(command, args, options) {
  const result = sh(command, args, options);
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${(result.stderr || result.stdout).trim().split('\n').slice(-15).join('\n')}`);
  return result.stdout;
}
/** What the rest of the machine has, to compare after teardown (our rules and routes must go, theirs stay). */
const iptablesNow = () =>
  ['iptables-save', 'ip6tables-save']
    .map((c) =>
      sh(c, [])
        .stdout.split('\n')
        .filter((l) => l && !l.startsWith('#'))
        .map((l) => `${c} ${l.replace(/\[\d+:\d+\]/g, '')}`)
        .sort()
        .join('\n'),
    )
    .join('\n');
/** An iptables -S line as arguments (double-quoted comments kept whole). */
const words = (line) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
/**
 * The KUBE-* chains of the kubelet (KUBE-FIREWALL, the canaries) and kube-proxy, and the jumps
 * to them: Kubernetes' own, there only because this run's node made them.
 */
function removeKubeChains() {
  let removed = 0;
  for (const command of ['iptables', 'ip6tables']) {
    for (const table of ['filter', 'nat', 'mangle', 'raw']) {
      const rules = sh(command, ['-t', table, '-S']).stdout.split('\n');
      for (const rule of rules.filter((r) => /^-A (INPUT|OUTPUT|FORWARD|PREROUTING|POSTROUTING) .*-j KUBE-/.test(r))) {
        if (sh(command, ['-t', table, '-D', ...words(rule).slice(1)]).status === 0) removed++;
      }
      const chains = rules.filter((r) => /^-N KUBE-/.test(r)).map((r) => r.split(' ')[1]);
      for (const chain of chains) sh(command, ['-t', table, '-F', chain]);
      for (const chain of chains) if (sh(command, ['-t', table, '-X', chain]).status === 0) removed++;
    }
  }
  return removed;
}
const mountsUnder = (...roots) =>
  sh('findmnt', ['-rn', '-o', 'TARGET'])
    .stdout.split('\n')
    .filter((m) => roots.some((r) => m === r || m.startsWith(`${r}/`)));
/** Processes whose command line names our folders: ours, whatever run started them. */
function ourProcesses() {
  const found = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(WORK) || cmdline.includes(CONTAINERD_ROOT)) found.push({ pid: Number(pid), cmdline: cmdline.slice(0, 160) });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Debian packages the node needs, installed when missing. */
export function ensurePackages(log, { node }) {
  const wanted = node
    ? {
        containerd: 'containerd',
        runc: 'runc',
        '/usr/lib/cni/bridge': 'containernetworking-plugins',
        iptables: 'iptables',
        socat: 'socat',
        'nats-server': 'nats-server',
        buildah: 'buildah',
        podman: 'podman',
        debootstrap: 'debootstrap',
      }
    : { openssl: 'openssl' };
  const missing = Object.entries(wanted)
    .filter(([tool]) => (tool.startsWith('/') ? !existsSync(tool) : sh('sh', ['-c', `command -v ${tool}`]).status !== 0))
    .map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  log(`installing ${missing.join(', ')} (apt)`);
  must('apt-get', ['update', '-qq']);
  must('apt-get', ['install', '-y', '-qq', ...missing], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

export class Cluster {
  /** bin: the folder of build.sh; node: false for the API server alone. */
  constructor({ bin, node = true, pauseImage = '', log = (line) => process.stdout.write(`${line}\n`) }) {
    this.bin = bin;
    this.node = node;
    this.pauseImage = pauseImage;
    this.log = log;
    this.processes = [];
    this.kubeconfig = join(WORK, 'admin.kubeconfig');
    this.undo = []; // what start() changed on the machine, undone in reverse
  }

  /** @param {string[]} args @param {{ input?: string, allowFail?: boolean, timeout?: number }} [options] */
  kubectl(args, { input = undefined, allowFail = false, timeout = 120_000 } = {}) {
    const result = sh(join(this.bin, 'kubectl'), ['--kubeconfig', this.kubeconfig, ...args], { input, timeout });
    if (!allowFail && result.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${(result.stderr || result.stdout).trim()}`);
    return result;
  }

  /** Starts a program with its output in WORK/logs/<name>.log; its pid goes to WORK/pids for a later cleanup. */
  spawn(name, command, args) {
    const log = openSync(join(WORK, 'logs', `${name}.log`), 'a');
    const child = spawn(command, args, { stdio: ['ignore', log, log], cwd: WORK });
    child.on('error', (error) => this.log(`  ${name}: ${error.message}`));
    this.processes.push({ name, child });
    writeFileSync(join(WORK, 'pids'), this.processes.map((p) => `${p.child.pid} ${p.name}`).join('\n'));
    return child;
  }

  async until(what, seconds, probe) {
    const deadline = Date.now() + seconds * 1000;
    let last = '';
    while (Date.now() < deadline) {
      for (const { name, child } of this.processes) {
        if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}) while waiting for ${what}: ${this.tail(name)}`);
      }
      try {
        const result = await probe();
        if (result === true) return;
        last = result || '';
      } catch (error) {
        last = error.message;
      }
      await sleep(500);
    }
    throw new Error(`${what}: not within ${seconds} s ${last ? `(${String(last).slice(0, 300)})` : ''}`);
  }

  /** until(), without the check of the processes (the teardown stops some on purpose). @param {() => true | string} probe */
  async untilQuiet(what, seconds, probe) {
    const deadline = Date.now() + seconds * 1000;
    /** @type {true | string} */
    let last = '';
    while (Date.now() < deadline) {
      last = probe();
      if (last === true) return;
      await sleep(500);
    }
    throw new Error(`${what}: not within ${seconds} s (${last})`);
  }

  tail(name, lines = 15) {
    try {
      return `\n${readFileSync(join(WORK, 'logs', `${name}.log`), 'utf8')
        .trimEnd()
        .split('\n')
        .slice(-lines)
        .join('\n')}`;
    } catch {
      return '';
    }
  }

  /** etcd and the API server (with a node: on the bridge's address, the bridge made first). */
  async startApi() {
    await Cluster.cleanLeftovers(this.log);
    this.iptablesBefore = iptablesNow();
    mkdirSync(join(WORK, 'logs'), { recursive: true });
    mkdirSync(join(WORK, 'pki'), { recursive: true });
    const address = this.node ? NET.nodeIp : '127.0.0.1';
    if (this.node) this.network();
    this.pki = makePki(join(WORK, 'pki'), { addresses: [address, '127.0.0.1'], serviceIp: NET.apiServiceIp });
    const server = `https://${address}:${PORTS.apiserver}`;
    writeKubeconfig(this.kubeconfig, { server, pki: this.pki });

    this.spawn('etcd', join(this.bin, 'etcd'), [
      '--name',
      'vault-test',
      '--data-dir',
      join(WORK, 'etcd'),
      '--listen-client-urls',
      `http://127.0.0.1:${PORTS.etcd}`,
      '--advertise-client-urls',
      `http://127.0.0.1:${PORTS.etcd}`,
      '--listen-peer-urls',
      `http://127.0.0.1:${PORTS.etcdPeer}`,
      '--initial-advertise-peer-urls',
      `http://127.0.0.1:${PORTS.etcdPeer}`,
      '--initial-cluster',
      `vault-test=http://127.0.0.1:${PORTS.etcdPeer}`,
      // A throwaway store: no fsync per write on a shared, busy disk.
      '--unsafe-no-fsync',
      '--log-level',
      'warn',
    ]);
    this.spawn('kube-apiserver', join(this.bin, 'kube-apiserver'), [
      '--etcd-servers',
      `http://127.0.0.1:${PORTS.etcd}`,
      '--bind-address',
      address,
      '--secure-port',
      String(PORTS.apiserver),
      ...(this.node ? ['--advertise-address', NET.nodeIp] : []),
      '--service-cluster-ip-range',
      NET.serviceCidr,
      '--tls-cert-file',
      this.pki.apiserverCert,
      '--tls-private-key-file',
      this.pki.apiserverKey,
      '--client-ca-file',
      this.pki.ca,
      '--anonymous-auth=false',
      '--authorization-mode',
      'RBAC',
      '--service-account-key-file',
      this.pki.saPub,
      '--service-account-signing-key-file',
      this.pki.saKey,
      '--service-account-issuer',
      'https://kubernetes.default.svc.cluster.local',
      '--kubelet-client-certificate',
      this.pki.adminCert,
      '--kubelet-client-key',
      this.pki.adminKey,
      '--kubelet-preferred-address-types',
      'InternalIP,Hostname',
      '--allow-privileged=false',
      '--profiling=false',
      '--v=1',
    ]);
    await this.until(
      'the API server',
      120,
      () => this.kubectl(['get', '--raw', '/readyz'], { allowFail: true, timeout: 10_000 }).stdout.trim() === 'ok' || 'not ready',
    );
    this.log(`  API server ready at ${server}`);
  }

  /** The rest of a node: controllers, scheduler, containerd, kubelet, kube-proxy, CoreDNS; until the node is Ready. */
  async startNode() {
    const kc = this.kubeconfig;
    // Both as the admin, one instance, no serving port of their own.
    const controlPlane = [
      ...['--kubeconfig', '--authentication-kubeconfig', '--authorization-kubeconfig'].flatMap((flag) => [flag, kc]),
      '--leader-elect=false',
      '--bind-address',
      '127.0.0.1',
      '--secure-port',
      '0',
      '--v=1',
    ];
    this.spawn('kube-controller-manager', join(this.bin, 'kube-controller-manager'), [
      ...controlPlane,
      '--service-account-private-key-file',
      this.pki.saKey,
      '--root-ca-file',
      this.pki.ca,
    ]);
    this.spawn('kube-scheduler', join(this.bin, 'kube-scheduler'), controlPlane);
    await this.startContainerd();
    this.startKubelet();
    this.startKubeProxy();
    this.startCoreDns();
    await this.until('the node Ready', 120, () => {
      const ready = this.kubectl(['get', 'node', NODE_NAME, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'], { allowFail: true }).stdout;
      return ready === 'True' || `Ready=${ready || 'no node yet'}`;
    });
    // kube-proxy inserts its rules at the top: ours goes back to first place.
    this.dropRuleFirst();
  }

  /** The bridge (the kubelet wants its node IP on an interface before any pod), forwarding, the drop rule. */
  network() {
    must('ip', ['link', 'add', NET.bridge, 'type', 'bridge']);
    this.undo.push(['bridge', () => sh('ip', ['link', 'del', NET.bridge])]);
    must('ip', ['addr', 'add', `${NET.nodeIp}/24`, 'dev', NET.bridge]);
    must('ip', ['link', 'set', NET.bridge, 'up']);
    // This machine reaches the Services' addresses through the bridge (kube-proxy rewrites them).
    must('ip', ['route', 'add', NET.serviceCidr, 'dev', NET.bridge, 'src', NET.nodeIp]);
    this.undo.push(['route', () => sh('ip', ['route', 'del', NET.serviceCidr])]);
    const forwarding = readFileSync('/proc/sys/net/ipv4/ip_forward', 'utf8').trim();
    writeFileSync(join(WORK, 'ip_forward'), forwarding);
    this.undo.push(['ip_forward', () => writeFileSync('/proc/sys/net/ipv4/ip_forward', forwarding)]);
    // A pod reaching a Service that rewrites to another pod is routed by this machine.
    writeFileSync('/proc/sys/net/ipv4/ip_forward', '1');
    // Before anything can be forwarded: nothing from the bridge goes anywhere but the bridge.
    must('iptables', ['-t', 'mangle', '-I', ...DROP_RULE]);
    must('ip6tables', ['-t', 'mangle', '-I', 'FORWARD', '-i', NET.bridge, '-j', 'DROP']);
    this.undo.push([
      'drop rules',
      () => {
        while (sh('iptables', ['-t', 'mangle', '-D', ...DROP_RULE]).status === 0);
        while (sh('ip6tables', ['-t', 'mangle', '-D', 'FORWARD', '-i', NET.bridge, '-j', 'DROP']).status === 0);
      },
    ]);
  }

  dropRuleFirst() {
    const first = sh('iptables', ['-t', 'mangle', '-S', 'FORWARD'])
      .stdout.split('\n')
      .filter((l) => l.startsWith('-A FORWARD'))[0];
    if (!first?.includes(`-i ${NET.bridge}`)) {
      sh('iptables', ['-t', 'mangle', '-D', ...DROP_RULE]);
      must('iptables', ['-t', 'mangle', '-I', ...DROP_RULE]);
    }
  }

  async startContainerd() {
    mkdirSync(CONTAINERD_ROOT, { recursive: true });
    mkdirSync(join(WORK, 'cni'), { recursive: true });
    this.containerdSocket = join(WORK, 'containerd.sock');
    writeFileSync(
      join(WORK, 'containerd.toml'),
      `version = 2
root = "${CONTAINERD_ROOT}"
state = "${join(WORK, 'containerd-state')}"
[grpc]
  address = "${this.containerdSocket}"
[ttrpc]
  address = "${join(WORK, 'containerd-ttrpc.sock')}"
[plugins."io.containerd.internal.v1.opt"]
  path = "${join(CONTAINERD_ROOT, 'opt')}"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${this.pauseImage}"
  # Without it runc fails on pod sandboxes here: "nsexec: failed to update /proc/self/oom_score_adj".
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        Root = "${join(WORK, 'runc')}"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${join(WORK, 'cni')}"
`,
    );
    writeFileSync(
      join(WORK, 'cni', '10-vault.conflist'),
      JSON.stringify(
        {
          cniVersion: '1.0.0',
          name: 'vault-test',
          plugins: [
            {
              type: 'bridge',
              bridge: NET.bridge,
              isGateway: true,
              ipMasq: false,
              hairpinMode: true,
              ipam: {
                type: 'host-local',
                dataDir: join(WORK, 'cni-ipam'),
                ranges: [[{ subnet: NET.podCidr, gateway: NET.nodeIp }]],
                routes: [{ dst: '0.0.0.0/0' }],
              },
            },
          ],
        },
        null,
        2,
      ),
    );
    this.spawn('containerd', 'containerd', ['--config', join(WORK, 'containerd.toml')]);
    await this.until('containerd', 60, () => this.ctr(['version'], { allowFail: true }).status === 0 || 'no answer');
  }

  ctr(args, { allowFail = false } = {}) {
    const result = sh('ctr', ['--address', this.containerdSocket ?? join(WORK, 'containerd.sock'), '--namespace', 'k8s.io', ...args]);
    if (!allowFail && result.status !== 0) throw new Error(`ctr ${args.join(' ')}: ${result.stderr.trim()}`);
    return result;
  }

  startKubelet() {
    // The kubelet links the pods' logs from this fixed folder: removed again if it makes it.
    if (!existsSync('/var/log/containers')) writeFileSync(join(WORK, 'made-var-log-containers'), '');
    const config = join(WORK, 'kubelet.yaml');
    writeFileSync(
      config,
      `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: false }
  x509: { clientCAFile: "${this.pki.ca}" }
authorization: { mode: AlwaysAllow }
address: ${NET.nodeIp}
port: ${PORTS.kubelet}
readOnlyPort: 0
healthzPort: 0
cgroupDriver: cgroupfs
containerRuntimeEndpoint: unix://${this.containerdSocket}
clusterDNS: [${NET.nodeIp}]
clusterDomain: cluster.local
failSwapOn: false
# The images cannot be pulled again: never collected, and no eviction for a busy shared disk.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: { memory.available: "50Mi", nodefs.available: "1%", imagefs.available: "1%", nodefs.inodesFree: "1%" }
serializeImagePulls: false
# Under the run's folder, so that the teardown takes them (/var/log/containers gets links only).
podLogsDir: ${join(WORK, 'pod-logs')}
`,
    );
    this.spawn('kubelet', join(this.bin, 'kubelet'), [
      '--config',
      config,
      '--kubeconfig',
      this.kubeconfig,
      '--root-dir',
      join(WORK, 'kubelet'),
      '--cert-dir',
      join(WORK, 'kubelet-pki'),
      '--hostname-override',
      NODE_NAME,
      '--node-ip',
      NET.nodeIp,
      '--v=1',
    ]);
  }

  startKubeProxy() {
    const config = join(WORK, 'kube-proxy.yaml');
    writeFileSync(
      config,
      `apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: { kubeconfig: "${this.kubeconfig}" }
hostnameOverride: ${NODE_NAME}
mode: iptables
clusterCIDR: ${NET.podCidr}
bindAddress: 127.0.0.1
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
# Leave the machine's conntrack and localnet settings alone.
conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s }
# Its sync periods are a kubeadm cluster's (the defaults, written out): at most one rewrite
# of the rules a second, a full one every 30 s. A stopped pod leaves the rules late, as on a
# real node; the chart's preStop wait must cover that lag (the pod checks measure it), not a
# test cluster tuned to shorten it.
iptables: { localhostNodePorts: false, minSyncPeriod: 1s, syncPeriod: 30s }
nodePortAddresses: ["${NET.nodeIp}/32"]
`,
    );
    this.spawn('kube-proxy', join(this.bin, 'kube-proxy'), ['--config', config, '--v=1']);
  }

  startCoreDns() {
    // Cluster names only: no forwarding, so no pod's query leaves the machine.
    writeFileSync(
      join(WORK, 'Corefile'),
      `.:53 {
    bind ${NET.nodeIp}
    errors
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        kubeconfig ${this.kubeconfig}
        pods insecure
    }
    cache 10
}
`,
    );
    this.spawn('coredns', join(this.bin, 'coredns'), ['-conf', join(WORK, 'Corefile')]);
  }

  /**
   * Everything a run leaves: pods (deleted while the node still runs, so each sandbox's network
   * goes), then the processes in reverse order, mounts, the network changes, cgroups, the folder.
   * Returns what could not be removed (empty when clean).
   */
  async stop() {
    const started = Date.now();
    if (this.node && this.processes.some((p) => p.name === 'kubelet' && p.child.exitCode === null)) {
      // The pods' logs, for a look after a failure (the kubelet removes them with the pods).
      if (existsSync(join(WORK, 'pod-logs'))) sh('cp', ['-r', join(WORK, 'pod-logs'), join(WORK, 'logs', 'pods')]);
      // Nothing may make or place new pods meanwhile: the controllers and the scheduler go first.
      for (const { name, child } of this.processes) if (['kube-controller-manager', 'kube-scheduler'].includes(name)) child.kill('SIGKILL');
      this.kubectl(['delete', 'pods', '--all', '--all-namespaces', '--grace-period=0', '--force', '--wait=false'], { allowFail: true, timeout: 30_000 });
      await this.untilQuiet('no container left', 60, () => {
        const left = this.ctr(['tasks', 'ls', '-q'], { allowFail: true }).stdout.trim();
        return left === '' || `${left.split('\n').length} running`;
      }).catch((error) => this.log(`  ${error.message}`));
    }
    if (this.node && existsSync(join(WORK, 'containerd.sock'))) {
      // Whatever the kubelet did not remove.
      for (const id of this.ctr(['tasks', 'ls', '-q'], { allowFail: true }).stdout.split('\n').filter(Boolean))
        this.ctr(['tasks', 'kill', '-s', 'SIGKILL', id], { allowFail: true });
      await sleep(500);
      for (const id of this.ctr(['tasks', 'ls', '-q'], { allowFail: true }).stdout.split('\n').filter(Boolean))
        this.ctr(['tasks', 'delete', '-f', id], { allowFail: true });
      for (const id of this.ctr(['containers', 'ls', '-q'], { allowFail: true }).stdout.split('\n').filter(Boolean))
        this.ctr(['containers', 'delete', id], { allowFail: true });
    }
    for (const { child } of [...this.processes].reverse()) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    }
    // A throwaway cluster: 5 s to stop (the API server would wait on its watches much longer).
    const deadline = Date.now() + 5_000;
    while (this.processes.some(({ child }) => child.exitCode === null && child.signalCode === null) && Date.now() < deadline) await sleep(200);
    for (const { child } of this.processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await sleep(300);
    if (this.node) sh(join(this.bin, 'kube-proxy'), ['--cleanup']);
    removeKubeChains();
    for (const [, fn] of [...this.undo].reverse()) fn();
    this.undo = [];
    const left = await Cluster.cleanLeftovers(this.log, { quiet: true, iptablesBefore: this.iptablesBefore });
    this.log(`  torn down in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return left;
  }

  /**
   * Removes what a run left in WORK and on the machine (also a killed run's), then lists what is
   * still there: processes naming our folders, mounts under them, the bridge, our routes and rules.
   */
  /** @param {(line: string) => void} log @param {{ quiet?: boolean, iptablesBefore?: string }} [options] */
  static async cleanLeftovers(log, { quiet = false, iptablesBefore = undefined } = {}) {
    const cleaned = [];
    for (const { pid, cmdline } of ourProcesses()) {
      try {
        process.kill(pid, 'SIGKILL');
        cleaned.push(`process ${pid} (${cmdline.split(' ')[0]})`);
      } catch {
        // already gone
      }
    }
    if (cleaned.length) await sleep(500);
    for (const target of mountsUnder(WORK, CONTAINERD_ROOT).reverse()) {
      if (sh('umount', [target]).status !== 0) sh('umount', ['-l', target]);
      cleaned.push(`mount ${target}`);
    }
    // Network namespaces of sandboxes the kubelet did not remove.
    for (const ns of existsSync('/var/run/netns') ? readdirSync('/var/run/netns').filter((n) => n.startsWith('cni-')) : []) {
      const pids = sh('ip', ['netns', 'pids', ns]).stdout.trim();
      if (pids === '' && sh('ip', ['netns', 'delete', ns]).status === 0) cleaned.push(`netns ${ns}`);
    }
    if (sh('ip', ['link', 'show', NET.bridge]).status === 0) {
      sh('ip', ['link', 'del', NET.bridge]);
      cleaned.push(`link ${NET.bridge}`);
    }
    if (sh('ip', ['route', 'show', NET.serviceCidr]).stdout.trim()) {
      sh('ip', ['route', 'del', NET.serviceCidr]);
      cleaned.push(`route ${NET.serviceCidr}`);
    }
    while (sh('iptables', ['-t', 'mangle', '-D', ...DROP_RULE]).status === 0) cleaned.push('iptables drop rule');
    while (sh('ip6tables', ['-t', 'mangle', '-D', 'FORWARD', '-i', NET.bridge, '-j', 'DROP']).status === 0) cleaned.push('ip6tables drop rule');
    if (removeKubeChains() > 0) cleaned.push("the kubelet's and kube-proxy's iptables chains");
    // The kubelet's links to the pods' logs (a fixed folder it cannot be told otherwise).
    for (const link of existsSync('/var/log/containers') ? readdirSync('/var/log/containers') : []) {
      const path = join('/var/log/containers', link);
      try {
        if (readlinkSync(path).startsWith(WORK)) {
          rmSync(path, { force: true });
          cleaned.push(`log link ${link}`);
        }
      } catch {
        // not a link
      }
    }
    if (existsSync(join(WORK, 'made-var-log-containers')) && existsSync('/var/log/containers') && readdirSync('/var/log/containers').length === 0) {
      rmSync('/var/log/containers', { recursive: true });
    }
    if (existsSync(join(WORK, 'ip_forward'))) writeFileSync('/proc/sys/net/ipv4/ip_forward', readFileSync(join(WORK, 'ip_forward'), 'utf8').trim());
    // The kubelet's cgroups (empty once every container is gone).
    for (const hierarchy of existsSync('/sys/fs/cgroup') ? readdirSync('/sys/fs/cgroup') : []) {
      const kubepods = join('/sys/fs/cgroup', hierarchy, 'kubepods');
      if (existsSync(kubepods)) {
        sh('find', [kubepods, '-depth', '-type', 'd', '-exec', 'rmdir', '{}', ';']);
        if (!existsSync(kubepods)) cleaned.push(`cgroup ${hierarchy}/kubepods`);
      }
    }
    if (existsSync(WORK)) {
      // The logs stay for a look after a failure; everything else goes.
      const logs = join(WORK, 'logs');
      const keep = existsSync(logs) ? `${WORK}-logs` : null;
      if (keep) {
        rmSync(keep, { recursive: true, force: true });
        sh('mv', [logs, keep]);
      }
      rmSync(WORK, { recursive: true, force: true });
    }
    if (!quiet && cleaned.length) log(`  removed what an earlier run left: ${cleaned.join(', ')}`);

    const left = [
      ...ourProcesses().map((p) => `process ${p.pid}: ${p.cmdline}`),
      ...mountsUnder(WORK, CONTAINERD_ROOT).map((m) => `mount ${m}`),
      ...(sh('ip', ['link', 'show', NET.bridge]).status === 0 ? [`link ${NET.bridge}`] : []),
      ...(sh('ip', ['route', 'show', NET.serviceCidr]).stdout.trim() ? [`route ${NET.serviceCidr}`] : []),
      ...(sh('ip', ['route', 'show', NET.podCidr]).stdout.trim() ? [`route ${NET.podCidr}`] : []),
    ];
    if (iptablesBefore !== undefined) {
      const before = new Set(iptablesBefore.split('\n'));
      // Only what names this run's chains, bridge or ranges: other programs may change rules meanwhile.
      for (const rule of iptablesNow().split('\n')) if (rule && !before.has(rule) && /KUBE|CNI|vaultk8s|10\.244\.|10\.96\./.test(rule)) left.push(rule);
    }
    return left;
  }
}

/** Imports images into the node's containerd, skipping those already there with the same id (podman save | ctr import). */
export function loadImages(cluster, images, env) {
  const stamp = join(CONTAINERD_ROOT, 'imported.json');
  const known = existsSync(stamp) ? JSON.parse(readFileSync(stamp, 'utf8')) : {};
  const present = new Set(cluster.ctr(['images', 'ls', '-q']).stdout.split('\n'));
  const idOf = (image) => must('podman', ['image', 'inspect', '--format', '{{.Id}}', image], { env }).trim();
  const wanted = images.map((image) => ({ image, id: idOf(image) }));
  const missing = wanted.filter(({ image, id }) => known[image] !== id || !present.has(image));
  if (missing.length > 0) {
    const archive = join(WORK, 'images.tar');
    must('podman', ['save', '--quiet', '--format', 'docker-archive', '-m', '-o', archive, ...missing.map((m) => m.image)], { env });
    cluster.ctr(['images', 'import', archive]);
    rmSync(archive, { force: true });
    for (const { image, id } of missing) known[image] = id;
    writeFileSync(stamp, JSON.stringify(known, null, 2));
  }
  // Earlier builds of the project's images: removed, so that containerd's store does not grow run by run.
  const names = new Set(images);
  for (const old of cluster.ctr(['images', 'ls', '-q']).stdout.split('\n')) {
    if (old.startsWith('localhost/vault-') && !names.has(old)) cluster.ctr(['images', 'rm', old], { allowFail: true });
  }
  return { imported: missing.map((m) => m.image), kept: wanted.length - missing.length };
}

export { CONTAINERD_ROOT, NODE_NAME, must, sh };
export const exec = execFileSync;
