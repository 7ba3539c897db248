// The images' Dockerfile (one for the six apps, ARG APP) and build context.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';
import { buildArgs, DOCKERFILE, dockerfileStages, EMBEDDED_STAGE, finalStageLines } from '../../scripts/containers/dockerfile.mjs';
import { SERVER_ENV, SERVER_NODE_FLAGS, serverCmd, serverEnvAssignments } from '../../scripts/lib/node-flags.mjs';
import { appEntry } from '../../scripts/lib/vault-launcher.mjs';
import { APPS, assert, chart, equal, fullname, podSpecOf, render, root } from './kit.mjs';

// What the chart takes for granted of the images (docs/deploy.md, "Images"); scripts/containers/build-images.mjs builds them, `npm run test:k8s` runs them under the chart.
const chartValues = parseAllDocuments(readFileSync(join(chart, 'values.yaml'), 'utf8'))[0].toJS();
const nodeMajor = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node.match(/(\d+)/)[1];
for (const app of APPS) {
  test(`Dockerfile with APP=${app}: base a build argument (node:${nodeMajor}-bookworm-slim), multi-stage, uid ${chartValues.securityContext.runAsUser}, /app, no HEALTHCHECK`, () => {
    const { preamble, stages: all } = dockerfileStages(app);
    equal(preamble, [`ARG BASE_IMAGE=node:${nodeMajor}-bookworm-slim`], 'before the first FROM');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own ${BASE_IMAGE}, read as text.
    const froms = ['FROM ${BASE_IMAGE} AS build', 'FROM ${BASE_IMAGE} AS deps', `FROM scratch AS ${EMBEDDED_STAGE}`, 'FROM deps'];
    equal(
      all.map((s) => s.from),
      froms,
      'the stages: build, the shared layer, the embedded image (built only with --target), this app',
    );
    // What a build with APP (and no --target) goes through.
    const stages = all.filter((s) => s.from !== `FROM scratch AS ${EMBEDDED_STAGE}`);
    equal(stages[1].lines, ['COPY --from=build /rootfs/deps/ /'], 'the shared layer holds the staged dependencies only');
    const last = stages.at(-1);
    assert(!stages.some((s) => s.lines.some((l) => /^HEALTHCHECK/i.test(l))), "a HEALTHCHECK (health is the app's own endpoint, probed by the orchestrator)");
    const instruction = (word) => last.lines.filter((l) => l.toUpperCase().startsWith(`${word} `)).map((l) => l.slice(word.length + 1).trim());
    equal(instruction('USER'), [`${chartValues.securityContext.runAsUser}:${chartValues.securityContext.runAsGroup}`], 'USER');
    equal(
      instruction('WORKDIR'),
      [`/app/apps/${app}`],
      "WORKDIR: the app's folder, as in the repository (the migration Job runs `node dist/main.js migrate` there)",
    );
    equal(instruction('CMD'), [serverCmd('dist/bundle/main.js')], "CMD: the app's bundle, node with the launch lines' flags (scripts/lib/node-flags.mjs)");
    assert(!last.lines.some((l) => /^RUN\s/i.test(l)), 'the last stage runs nothing: it only copies what the build laid out');
    equal(
      last.lines.filter((l) => /^COPY\s/i.test(l)),
      [`COPY --from=build /rootfs/${app}/app/ /app/`],
      "the last stage copies this app's files (scripts/containers/stage-app.mjs), and nothing when APP is missing",
    );
    const port = app === 'gateway' ? chartValues.gateway.port : chartValues.services[app.replace(/-svc$/, '')].port;
    equal(instruction('EXPOSE'), [String(port)], "EXPOSE (the chart's port)");
    const variables = Object.fromEntries(instruction('ENV').flatMap((e) => e.split(/\s+/).map((pair) => pair.split('='))));
    for (const [name, value] of Object.entries({ PORT: String(port), VAULT_MODE: 'distributed', HOST: '0.0.0.0', ...SERVER_ENV }))
      equal(variables[name], value, `ENV ${name} (the launch lines' environment: scripts/lib/node-flags.mjs)`);
    const staged =
      stages[0].lines
        .join(' ')
        .match(/stage-app\.mjs \/rootfs ([^&]+)/)?.[1]
        .trim()
        .split(/\s+/) ?? [];
    equal(
      staged.map((spec) => spec.split('+')[0]),
      APPS,
      'the apps the build stage lays out',
    );
    equal(
      staged.find((spec) => spec.startsWith('gateway')),
      'gateway+apps/web/dist',
      'the web app (apps/web/dist) goes with the gateway',
    );
  });
}
test(`Dockerfile, stage ${EMBEDDED_STAGE} (the embedded image): from scratch, laid out by stage-vault.mjs, uid ${chartValues.securityContext.runAsUser}, /data a volume, tini, a HEALTHCHECK`, () => {
  const lines = finalStageLines(EMBEDDED_STAGE);
  const instruction = (word) => lines.filter((l) => l.toUpperCase().startsWith(`${word} `)).map((l) => l.slice(word.length + 1).trim());
  equal(instruction('COPY'), [`--from=build /rootfs/${EMBEDDED_STAGE}/ /`], 'the whole filesystem from the build stage, nothing else');
  assert(
    dockerfileStages(EMBEDDED_STAGE).stages[0].lines.some((l) => l.includes(`stage-vault.mjs /rootfs/${EMBEDDED_STAGE}`)),
    'the build stage lays it out (scripts/containers/stage-vault.mjs)',
  );
  equal(instruction('USER'), [`${chartValues.securityContext.runAsUser}:${chartValues.securityContext.runAsGroup}`], 'USER');
  equal(instruction('VOLUME'), ['/data'], 'VOLUME');
  equal(instruction('EXPOSE'), [String(chartValues.gateway.port)], "EXPOSE (the gateway's port, as npm start)");
  equal(instruction('ENTRYPOINT'), ['["/usr/bin/tini", "--"]'], 'ENTRYPOINT: tini as PID 1 passes the stop signal on and reaps');
  equal(instruction('CMD'), [serverCmd('apps/vault/dist/bundle/main.js')], "CMD: node with the launch lines' flags (scripts/lib/node-flags.mjs)");
  assert(/^--\S+.* CMD \["node", "apps\/vault\/healthcheck\.mjs"\]$/.test(instruction('HEALTHCHECK')[0] ?? ''), `HEALTHCHECK ${instruction('HEALTHCHECK')}`);
  const variables = Object.fromEntries(instruction('ENV').flatMap((e) => e.split(/\s+/).map((pair) => pair.split('='))));
  for (const [name, value] of Object.entries({
    VAULT_MODE: 'embedded',
    VAULT_DATA_DIR: '/data',
    HOST: '0.0.0.0',
    PORT: String(chartValues.gateway.port),
    ...SERVER_ENV,
  }))
    equal(variables[name], value, `ENV ${name}`);
  assert(existsSync(join(root, 'apps/vault/healthcheck.mjs')), 'apps/vault/healthcheck.mjs is missing');
});
test('one Dockerfile: the build and shared-layer stages do not depend on APP (one workspace build, one dependency layer); no Dockerfile per app', () => {
  const shared = (app) => JSON.stringify(dockerfileStages(app).stages.slice(0, 2));
  for (const app of APPS) equal(shared(app), shared(APPS[0]), `${app}'s build and deps stages`);
  assert(existsSync(DOCKERFILE), 'no Dockerfile at the repository root');
  for (const app of APPS) assert(!existsSync(join(root, 'apps', app, 'Dockerfile')), `apps/${app}/Dockerfile: a second place to keep the same`);
  // The gateway's arguments are the only ones beyond APP: its public port.
  equal(
    APPS.filter((app) => Object.keys(buildArgs(app)).length > 1),
    ['gateway'],
    'apps built with more than APP',
  );
});
test('.dockerignore: no node_modules, builds or local data in the build context', () => {
  const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim());
  for (const pattern of ['.git', '**/node_modules', '**/dist', 'data', '.env']) assert(ignored.includes(pattern), `${pattern} not ignored`);
});

test("every app's own start script runs node with the launch lines' flags (scripts/lib/node-flags.mjs)", () => {
  for (const app of [...APPS, 'vault']) {
    const { scripts } = JSON.parse(readFileSync(join(root, 'apps', app, 'package.json'), 'utf8'));
    equal(
      scripts.start,
      [...serverEnvAssignments(), 'node', ...SERVER_NODE_FLAGS, relative(join('apps', app), appEntry(app))].join(' '),
      `apps/${app}: npm start runs its bundle, with the launch lines' environment and flags`,
    );
  }
});

test("the chart's and the compose files' long-running apps run the images' CMD as it is (no command or args of their own)", () => {
  const objects = render(['-f', join(chart, 'values-trial.yaml')], 'the trial values');
  const apps = objects.filter((o) => o.kind === 'Deployment' && APPS.some((app) => o.metadata.name === fullname(app)));
  equal(apps.length, APPS.length, 'a Deployment per app');
  for (const deployment of apps)
    for (const container of podSpecOf(deployment).containers)
      assert(container.command === undefined && container.args === undefined, `${deployment.metadata.name}: command or args instead of the image's CMD`);
  for (const file of ['compose.yaml', 'compose.distributed.yaml']) {
    const { services } = parse(readFileSync(join(root, file), 'utf8'), { merge: true });
    for (const [name, service] of Object.entries(services))
      if (/^(vault|gateway|[\w-]+-svc)$/.test(name))
        assert(service.command === undefined && service.entrypoint === undefined, `${file}: ${name} overrides the image's CMD`);
  }
});
