// The one Dockerfile of the images (the repository's Dockerfile: the embedded
// image, stage vault; the six apps of the distributed mode, ARG APP), read as
// the image tooling (build-images.mjs) and the tests (deploy/test/images.test.mjs)
// need it: its instructions for one app.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DOCKERFILE = fileURLToPath(new URL('../../Dockerfile', import.meta.url));

/** The embedded image's stage (`docker build --target vault`). */
export const EMBEDDED_STAGE = 'vault';

/** An app's build arguments: its name, and its port where that is not the services' 8080 (the gateway's public port). */
export const buildArgs = (app) => (app === 'gateway' ? { APP: app, PORT: '3000' } : { APP: app });

/**
 * The Dockerfile's instructions for `app` (continuation lines joined,
 * comments dropped), split into stages; in each stage, the arguments it
 * declares are replaced by `buildArgs(app)` or their defaults, as a build
 * does. The FROM lines keep their ${BASE_IMAGE}.
 * @returns {{ preamble: string[], stages: { from: string, lines: string[] }[] }}
 */
export function dockerfileStages(app) {
  const lines = readFileSync(DOCKERFILE, 'utf8')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const given = buildArgs(app);
  const stages = [{ from: null, lines: [], args: {} }];
  for (const line of lines) {
    if (/^FROM\s/i.test(line)) {
      stages.push({ from: line, lines: [], args: {} });
      continue;
    }
    const stage = stages.at(-1);
    const declared = /^ARG\s+(\w+)(?:=(.*))?$/i.exec(line);
    if (declared && stage.from) stage.args[declared[1]] = given[declared[1]] ?? declared[2] ?? '';
    stage.lines.push(stage.from ? line.replace(/\$\{(\w+)\}/g, (text, name) => stage.args[name] ?? text) : line);
  }
  return { preamble: stages[0].lines, stages: stages.slice(1).map(({ from, lines }) => ({ from, lines })) };
}

/** The lines of the stage a build for `target` ends with: the stage named so (`--target`), or else the last one (an app of the distributed mode). */
export function finalStageLines(target) {
  const { stages } = dockerfileStages(target);
  const named = stages.find((stage) => new RegExp(`\\sAS\\s+${target}$`, 'i').test(stage.from));
  return (named ?? stages.at(-1)).lines;
}

/** The working directory an image for `target` runs in (its last WORKDIR), where the chart's Jobs run the app's other commands. */
export function workdirOf(target) {
  const workdirs = finalStageLines(target).filter((line) => /^WORKDIR\s/i.test(line));
  if (workdirs.length === 0) throw new Error(`the Dockerfile gives ${target} no WORKDIR`);
  return workdirs
    .at(-1)
    .replace(/^WORKDIR\s+/i, '')
    .trim();
}
