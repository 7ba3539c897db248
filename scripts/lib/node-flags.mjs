// node's flags on the launch line of every long-running Vault process: the
// embedded vault, the gateway and the services, however they are started
// (`npm start`, the distributed launcher, the bench and end-to-end fixtures
// through vault-launcher.mjs; the images' CMD, which the chart and the
// compose files run as they are, held to this list by
// deploy/test/images.test.mjs). Said once, here.
//
// The young generation's size (issue 37, docs/adr/0018): V8 sizes it when
// the heap is set up, so only the command line (or NODE_OPTIONS) can; a
// setting made once the process runs could only stop it from growing, and
// kept at 1 MB it cost a third of the throughput (a scavenge every 2 to 3 ms
// under load). Each semi-space grows to 8 MB: 1.4 to 1.6 times the GET
// throughput of the 1 MB one, as 16 and 32 MB give within this machine's
// noise, for the least memory of the three (the distributed stack at rest
// 483-490 MB, against 548-566 with 16 MB; 1 MB: 402-421).
// `node bench/young-generation.mjs` measures the candidates (docs/performance.md).

/** @type {readonly string[]} */
export const SERVER_NODE_FLAGS = Object.freeze(['--max-semi-space-size=8']);

/**
 * The environment of every long-running Vault process, beside its flags, set
 * where the flags are (the launcher, the Dockerfile's ENV, each app's npm
 * start; docs/adr/0021); a value the process's own environment gives wins.
 *
 * MALLOC_ARENA_MAX: glibc gives each thread that allocates an arena of its
 * own, up to eight per core, and keeps what is freed in each. libuv's
 * threads (zlib, sharp's decoding of every photo) allocate on their own: a
 * journal import of 200 photos rose the embedded vault's resident memory by
 * 56-59 MB with two arenas, against 60-74 MB without, four alternating
 * runs each (`node bench/import-memory.mjs`).
 * @type {Readonly<Record<string, string>>}
 */
export const SERVER_ENV = Object.freeze({ MALLOC_ARENA_MAX: '2' });

/** SERVER_ENV as assignments, as a Dockerfile's ENV and a shell command write them: `MALLOC_ARENA_MAX=2`. */
export const serverEnvAssignments = () => Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`);

/** The exec-form command that runs `entry` with them, as a Dockerfile's CMD writes it: `["node", "--flag", "entry"]`. */
export const serverCmd = (entry) => `[${['node', ...SERVER_NODE_FLAGS, entry].map((word) => JSON.stringify(word)).join(', ')}]`;
