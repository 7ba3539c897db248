// The process tree of a PID, read from /proc: a vault and whatever it starts
// (a database server and its backends, say). The launcher stops a whole tree
// with it, and the bench (bench/process-tree.mjs) measures one.
import { readFileSync, readdirSync } from 'node:fs';

/** A /proc file's text, or undefined once its process has gone. */
export const readProc = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};
const read = readProc;

/** The parent of every live process, from /proc/<pid>/stat (its comm may hold spaces and parentheses). */
function parents() {
  const parentOf = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    parentOf.set(Number(name), Number(fields[1]));
  }
  return parentOf;
}

/** The PIDs of each root and of every descendant of it that is alive now, roots first. */
export function processTree(...roots) {
  const parentOf = parents();
  const children = new Map();
  for (const [pid, parent] of parentOf) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const tree = [];
  const visit = (pid) => {
    if (!parentOf.has(pid) || tree.includes(pid)) return;
    tree.push(pid);
    for (const child of (children.get(pid) ?? []).sort((a, b) => a - b)) visit(child);
  };
  for (const root of roots) visit(root);
  return tree;
}

/**
 * A short readable name: the app a Node process runs (`apps/vault/dist/main.js`
 * -> `vault`), else the command without its path (`postgres -D ...`, or the
 * title a PostgreSQL process gives itself, `postgres: walwriter`).
 */
export function processName(pid) {
  const argv = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean);
  const app = argv.map((arg) => /apps\/([\w-]+)\/dist\/(?:bundle\/)?main\.js$/.exec(arg)?.[1]).find(Boolean);
  if (app) return app;
  if (argv.length === 0) return (read(`/proc/${pid}/comm`) ?? '?').trim();
  const [command, ...args] = argv;
  const line = [command.startsWith('/') ? command.slice(command.lastIndexOf('/') + 1) : command, ...args].join(' ').replace(/\s+/g, ' ').trim();
  return line.length > 48 ? `${line.slice(0, 45)}...` : line;
}
