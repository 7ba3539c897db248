// Scheduled backups in the chart (backup.*: templates/backup-cronjob.yaml and
// the backup job's NetworkPolicy): rendered with helm, validated strictly,
// asserted object by object, and the backup values the chart refuses.
import { test } from 'node:test';
import { workdirOf } from '../../scripts/containers/dockerfile.mjs';
import { checkPodSecurity, peersOf } from './checks.mjs';
import { assert, envOf, equal, fullname, named, podSpecOf, render, template } from './kit.mjs';

/** Where the CronJob's pod reads the passphrase (the Secret's key, mounted as one file). */
const PASSPHRASE_FILE = '/var/run/vault-backup/passphrase';

const production = ['-f', 'deploy/helm/values-production.yaml'];

/** Backup values the chart refuses, and what it says. */
const BACKUP_REFUSALS = [
  {
    name: 'backups without a passphrase Secret (they are always encrypted)',
    args: production.concat(['--set', 'backup.passphrase.secretName=']),
    message: 'backup.passphrase.secretName: required with backup.enabled: backups are always encrypted',
  },
  {
    name: 'backups without a destination',
    args: production.concat(['--set', 'backup.s3.enabled=false,backup.volume.enabled=false']),
    message: 'backup.volume.enabled, backup.s3.enabled: a backup needs a destination',
  },
  { name: 'keeping no backup (schema)', args: production.concat(['--set', 'backup.keep=0']), message: '/backup/keep' },
  { name: 'a bucket prefix from the root (schema)', args: production.concat(['--set-string', 'backup.s3.prefix=/vault/']), message: '/backup/s3/prefix' },
  { name: 'a misspelled backup value (schema)', args: production.concat(['--set', 'backup.kepe=3']), message: "additional properties 'kepe' not allowed" },
];

{
  const productionPeers = peersOf('values-production.yaml');

  /** helm template with these arguments, validated against the API types and locked down, as objects. */
  const renderLocked = (args) => {
    const objects = render(args);
    checkPodSecurity(objects);
    return objects;
  };
  const backupObjects = (objects) =>
    objects.filter((o) => o.metadata?.labels?.['app.kubernetes.io/component'] === 'backup' || o.metadata?.name === fullname('backups'));
  const cronJobOf = (objects) => {
    const cronJob = named(objects, 'CronJob', fullname('backup'));
    assert(cronJob, 'no CronJob vault-backup');
    return cronJob;
  };
  const containerOf = (cronJob) => podSpecOf(cronJob).containers[0];
  const volumeOf = (cronJob, name) => podSpecOf(cronJob).volumes.find((v) => v.name === name);
  const mountOf = (cronJob, name) => containerOf(cronJob).volumeMounts.find((m) => m.name === name);
  const egressOf = (objects) =>
    named(objects, 'NetworkPolicy', fullname('backup')).spec.egress.map((rule) => ({ ports: rule.ports.map((p) => `${p.port}/${p.protocol}`), to: rule.to }));

  /** What every backup CronJob is, whatever its destination. */
  function checkCronJob(objects, { schedule, timeZone, keep }) {
    const cronJob = cronJobOf(objects);
    const spec = cronJob.spec;
    equal([spec.schedule, spec.timeZone, spec.concurrencyPolicy], [schedule, timeZone, 'Forbid'], 'schedule, time zone, concurrencyPolicy');
    equal(
      [spec.successfulJobsHistoryLimit, spec.failedJobsHistoryLimit, spec.startingDeadlineSeconds],
      [3, 3, 3600],
      'history limits, startingDeadlineSeconds',
    );
    const job = spec.jobTemplate.spec;
    equal([job.backoffLimit, job.activeDeadlineSeconds], [2, 7200], 'backoffLimit, activeDeadlineSeconds');
    const pod = podSpecOf(cronJob);
    equal(pod.restartPolicy, 'Never', 'restartPolicy');
    const labels = job.template.metadata.labels;
    equal(
      [labels['app.kubernetes.io/name'], labels['app.kubernetes.io/instance'], labels['app.kubernetes.io/component']],
      ['vault', 'vault', 'backup'],
      'pod labels',
    );
    equal(cronJob.metadata.labels['app.kubernetes.io/component'], 'backup', 'CronJob labels');
    const container = containerOf(cronJob);
    const gateway = named(objects, 'Deployment', fullname('gateway')).spec.template.spec.containers[0];
    equal(container.image, gateway.image, 'the gateway image');
    equal([container.workingDir, container.command], [workdirOf('gateway'), ['node', 'dist/backup.js']], "the command, in the gateway image's folder");
    equal(container.args.slice(0, 4), ['--passphrase-file', PASSPHRASE_FILE, '--keep', String(keep)], 'passphrase file and keep');
    equal(container.envFrom, gateway.envFrom, "the gateway's ConfigMap");
    assert(!envOf(container).REDIS_URL, 'a backup needs no Redis');
    equal(mountOf(cronJob, 'passphrase'), { name: 'passphrase', mountPath: '/var/run/vault-backup', readOnly: true }, 'passphrase mount');
    equal(mountOf(cronJob, 'tmp')?.mountPath, '/tmp', '/tmp mount');
    // The policy selects the job's pods: NATS (and the bucket) only, nothing in.
    const policy = named(objects, 'NetworkPolicy', fullname('backup'));
    assert(policy, 'no NetworkPolicy for the backup job');
    for (const [key, value] of Object.entries(policy.spec.podSelector.matchLabels)) equal(labels[key], value, `the policy's selector ${key}`);
    assert(!policy.spec.ingress, 'the backup job must not allow ingress');
    return cronJob;
  }

  test('backup: off by default (values.yaml), and nothing of it renders then', () => {
    for (const args of [production.concat(['--set', 'backup.enabled=false']), ['-f', 'deploy/helm/values-trial.yaml']]) {
      const objects = renderLocked(args);
      equal(
        backupObjects(objects).map((o) => `${o.kind} ${o.metadata.name}`),
        [],
        `backup objects with ${args.join(' ')}`,
      );
      assert(!objects.some((o) => o.kind === 'CronJob' || o.kind === 'PersistentVolumeClaim'), 'a CronJob or a claim rendered');
    }
  });

  test('backup to a volume the chart creates: the CronJob, the claim (kept after uninstall), the passphrase Secret as a file', () => {
    const objects = renderLocked(
      production.concat([
        '--set',
        'backup.s3.enabled=false,backup.volume.enabled=true,backup.volume.size=50Gi,backup.volume.storageClassName=fast-ssd,backup.keep=3,backup.timeZone=Europe/Paris',
        '--set-string',
        'backup.schedule=15 2 * * 0',
      ]),
    );
    const cronJob = checkCronJob(objects, { schedule: '15 2 * * 0', timeZone: 'Europe/Paris', keep: 3 });
    equal(containerOf(cronJob).args, ['--passphrase-file', PASSPHRASE_FILE, '--keep', '3', '--dir', '/backups'], 'args');
    equal(containerOf(cronJob).env, undefined, 'env (no secret needed beyond the ConfigMap)');
    const claim = named(objects, 'PersistentVolumeClaim', fullname('backups'));
    assert(claim, 'no PersistentVolumeClaim vault-backups');
    equal(
      [claim.spec.resources.requests.storage, claim.spec.storageClassName, claim.spec.accessModes],
      ['50Gi', 'fast-ssd', ['ReadWriteOnce']],
      'claim size, class, access',
    );
    equal(claim.metadata.annotations['helm.sh/resource-policy'], 'keep', 'the claim outlives helm uninstall');
    equal(volumeOf(cronJob, 'backups'), { name: 'backups', persistentVolumeClaim: { claimName: fullname('backups') } }, 'backups volume');
    equal(mountOf(cronJob, 'backups'), { name: 'backups', mountPath: '/backups' }, 'backups mount');
    equal(
      volumeOf(cronJob, 'passphrase').secret,
      { secretName: 'vault-backup', defaultMode: 0o440, items: [{ key: 'passphrase', path: 'passphrase' }] },
      'passphrase volume',
    );
    equal(volumeOf(cronJob, 'tmp').emptyDir, { sizeLimit: '64Mi' }, 'a small /tmp: the export goes to the volume');
    equal(egressOf(objects), [{ ports: ['4222/TCP'], to: productionPeers.nats }], 'backup egress: NATS only');
  });

  test("backup to an existing claim: no claim rendered, the operator's mounted", () => {
    const objects = renderLocked(
      production.concat([
        '--set',
        'backup.s3.enabled=false,backup.volume.enabled=true,backup.volume.existingClaim=acme-vault-backups,backup.passphrase.key=PASSPHRASE',
      ]),
    );
    const cronJob = checkCronJob(objects, { schedule: '30 3 * * *', timeZone: 'Etc/UTC', keep: 14 });
    assert(!objects.some((o) => o.kind === 'PersistentVolumeClaim'), 'a claim rendered');
    equal(volumeOf(cronJob, 'backups').persistentVolumeClaim, { claimName: 'acme-vault-backups' }, 'claim');
    equal(volumeOf(cronJob, 'passphrase').secret.items, [{ key: 'PASSPHRASE', path: 'passphrase' }], 'the passphrase key');
  });

  test('backup to a bucket (values-production.yaml): the bucket and prefix, its credentials from the Secret, scratch space, NATS and S3 egress', () => {
    const objects = renderLocked(production);
    const cronJob = checkCronJob(objects, { schedule: '30 3 * * *', timeZone: 'Etc/UTC', keep: 14 });
    equal(
      containerOf(cronJob).args,
      ['--passphrase-file', PASSPHRASE_FILE, '--keep', '14', '--s3-bucket', 'acme-vault-backups', '--s3-prefix', 'vault/'],
      'args',
    );
    const env = envOf(containerOf(cronJob));
    equal(
      env,
      {
        S3_ACCESS_KEY_ID: { secretKeyRef: { name: 'vault-secrets', key: 'S3_ACCESS_KEY_ID' } },
        S3_SECRET_ACCESS_KEY: { secretKeyRef: { name: 'vault-secrets', key: 'S3_SECRET_ACCESS_KEY' } },
      },
      "env: media-svc's bucket credentials",
    );
    equal(
      envOf(named(objects, 'Deployment', fullname('media-svc')).spec.template.spec.containers[0]).S3_ACCESS_KEY_ID,
      env.S3_ACCESS_KEY_ID,
      'the same credentials as media-svc',
    );
    assert(!objects.some((o) => o.kind === 'PersistentVolumeClaim') && !volumeOf(cronJob, 'backups'), 'a volume without backup.volume.enabled');
    equal(volumeOf(cronJob, 'tmp').emptyDir, { sizeLimit: '16Gi' }, 'scratch space for the export before its upload');
    equal(
      egressOf(objects),
      [
        { ports: ['4222/TCP'], to: productionPeers.nats },
        { ports: ['443/TCP'], to: productionPeers.s3 },
      ],
      'backup egress: NATS and the bucket',
    );
  });

  test("backup to both, the bucket defaulting to the photos' (s3.bucket)", () => {
    const objects = renderLocked(production.concat(['--set', 'backup.volume.enabled=true,backup.s3.bucket=', '--set-string', 'backup.s3.prefix=backups/']));
    const cronJob = checkCronJob(objects, { schedule: '30 3 * * *', timeZone: 'Etc/UTC', keep: 14 });
    equal(containerOf(cronJob).args.slice(4), ['--dir', '/backups', '--s3-bucket', 'acme-vault-photos', '--s3-prefix', 'backups/'], 'destinations');
    assert(named(objects, 'PersistentVolumeClaim', fullname('backups')), 'no claim');
    equal(volumeOf(cronJob, 'tmp').emptyDir, { sizeLimit: '64Mi' }, '/tmp');
  });

  test('backup egress follows the URLs: nats://nats.example:4723 and http://minio.example:9000; a NATS URL from a Secret reaches the job too', () => {
    let objects = renderLocked(production.concat(['--set', 'nats.url=nats://nats.example:4723,s3.endpoint=http://minio.example:9000']));
    equal(
      egressOf(objects).map((r) => r.ports),
      [['4723/TCP'], ['9000/TCP']],
      'backup egress ports',
    );
    equal(
      egressOf(objects).map((r) => r.ports),
      named(objects, 'NetworkPolicy', fullname('gateway'))
        .spec.egress.filter((_, i) => i !== 1)
        .map((r) => r.ports.map((p) => `${p.port}/${p.protocol}`)),
      "the gateway's NATS and bucket ports",
    );
    objects = renderLocked(production.concat(['--set', 'secrets.natsUrl.key=NATS_URL', '--set-json', 'networkPolicy.egress.nats.ports=[4333]']));
    equal(
      egressOf(objects).map((r) => r.ports),
      [['4333/TCP'], ['443/TCP']],
      'backup egress ports with NATS_URL from a Secret',
    );
    equal(envOf(containerOf(cronJobOf(objects))).NATS_URL, { secretKeyRef: { name: 'vault-secrets', key: 'NATS_URL' } }, 'NATS_URL from the Secret');
  });

  test('backup in the trial: its NATS and MinIO accept the backup job as a client', () => {
    const objects = renderLocked([
      '-f',
      'deploy/helm/values-trial.yaml',
      '--set',
      'backup.enabled=true,backup.passphrase.secretName=vault-backup,backup.s3.enabled=true',
    ]);
    checkCronJob(objects, { schedule: '30 3 * * *', timeZone: undefined, keep: 7 });
    const clients = (store) => named(objects, 'NetworkPolicy', fullname(store)).spec.ingress[0].from[0].podSelector.matchExpressions[0].values;
    assert(clients('nats').includes('backup') && clients('minio').includes('backup'), `NATS clients ${clients('nats')}, MinIO clients ${clients('minio')}`);
    assert(!clients('postgres').includes('backup') && !clients('redis').includes('backup'), 'the backup job reaches neither PostgreSQL nor Redis');
    equal(
      egressOf(objects).map((r) => r.ports),
      [['4222/TCP'], ['9000/TCP']],
      "backup egress ports to the trial's stores",
    );
  });

  test('refuses every backup problem at once', () => {
    const result = template(production.concat(['--set', 'backup.passphrase.secretName=,backup.s3.enabled=false']));
    for (const field of ['backup.passphrase.secretName', 'backup.volume.enabled, backup.s3.enabled'])
      assert(result.stderr.includes(`- ${field}:`), `${field} not named in:\n${result.stderr}`);
  });
}

for (const r of BACKUP_REFUSALS) {
  test(`refuses ${r.name}, saying why`, () => {
    const result = template(r.args);
    assert(result.status !== 0, 'helm template succeeded');
    assert(result.stderr.includes(r.message), `expected "${r.message}" in:\n${result.stderr}`);
  });
}
