// The "existing" stores of a production-shaped install, for the pods on the
// node's bridge: this machine's PostgreSQL, Redis and MinIO (reached through
// socat forwards on the bridge address, on ports of their own) and a private
// nats-server with JetStream listening on the bridge address, never the
// machine's own NATS on 4222 (the test restarts it).
//
// PostgreSQL: one database per service, owned by a login role of its own
// (vault_k8s_<service>), as docs/deploy.md recommends; Redis: one database
// index, emptied; S3: a bucket of this run. close() removes all of it.
import { DeleteBucketCommand, DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { SERVICE_NAMES as SERVICES } from '../../../scripts/lib/services.mjs';
import { tcpAnswers } from '../../../scripts/lib/tcp-answers.mjs';
import { waitUntil } from '../../../scripts/lib/wait-until.mjs';
import { NET, WORK } from './cluster.mjs';

const FORWARDS = { postgres: [15432, 5432], redis: [16379, 6379], s3: [19000, 9000] };
const NATS_PORT = 14222;
const REDIS_DB = 13;
const S3 = { accessKey: process.env.S3_ACCESS_KEY_ID ?? 'vault-test', secretKey: process.env.S3_SECRET_ACCESS_KEY ?? 'vault-test-secret' };
const ADMIN_URL = process.env.K8S_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const waitFor = (what, host, port, seconds = 20) =>
  waitUntil(`${what} on ${host}:${port}`, () => tcpAnswers(host, port), { timeoutMs: seconds * 1000, intervalMs: 200 });

export class Stores {
  constructor(log) {
    this.log = log;
    this.children = [];
    this.bucket = `vault-k8s-${randomBytes(4).toString('hex')}`;
    this.passwords = Object.fromEntries(SERVICES.map((s) => [s, randomBytes(12).toString('hex')]));
    this.s3 = new S3Client({
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: S3.accessKey, secretAccessKey: S3.secretKey },
    });
  }

  /** What the chart's values and Secret need. */
  get urls() {
    const at = (port) => `${NET.nodeIp}:${port}`;
    return {
      nats: `nats://${at(NATS_PORT)}`,
      redis: `redis://${at(FORWARDS.redis[0])}/${REDIS_DB}`,
      s3: `http://${at(FORWARDS.s3[0])}`,
      database: (service) => `postgres://vault_k8s_${service}:${this.passwords[service]}@${at(FORWARDS.postgres[0])}/vault_k8s_${service}`,
    };
  }

  get s3Credentials() {
    return S3;
  }

  async start() {
    const s3Up = spawnSync('bash', ['scripts/s3-server/start.sh'], { encoding: 'utf8' });
    if (s3Up.status !== 0) throw new Error(`scripts/s3-server/start.sh: ${s3Up.stderr || s3Up.stdout}`);
    for (const [name, [listen, target]] of Object.entries(FORWARDS)) {
      const log = openSync(join(WORK, 'logs', `socat-${name}.log`), 'a');
      this.children.push(
        spawn('socat', [`TCP-LISTEN:${listen},bind=${NET.nodeIp},fork,reuseaddr`, `TCP:127.0.0.1:${target}`], { stdio: ['ignore', log, log] }),
      );
      await waitFor(`the ${name} forward`, NET.nodeIp, listen);
    }
    await this.startNats();
    await this.admin(async (db) => {
      for (const service of SERVICES) {
        await db.query(`drop database if exists vault_k8s_${service} with (force)`);
        await db.query(`drop role if exists vault_k8s_${service}`);
        await db.query(`create role vault_k8s_${service} login password '${this.passwords[service]}'`);
        await db.query(`create database vault_k8s_${service} owner vault_k8s_${service}`);
      }
    });
    await this.redis(['FLUSHDB']);
  }

  /** The private NATS: started, or started again on the same store (the broker restart of the checks). */
  async startNats() {
    mkdirSync(join(WORK, 'nats'), { recursive: true });
    const log = openSync(join(WORK, 'logs', 'nats.log'), 'a');
    this.nats = spawn('nats-server', ['-a', NET.nodeIp, '-p', String(NATS_PORT), '-js', '-sd', join(WORK, 'nats')], { stdio: ['ignore', log, log] });
    this.children.push(this.nats);
    await waitFor('the private NATS', NET.nodeIp, NATS_PORT);
  }

  async stopNats() {
    const stopped = new Promise((resolve) => this.nats.once('exit', resolve));
    this.nats.kill('SIGTERM');
    await stopped;
  }

  async admin(fn, database = 'postgres') {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    const db = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
    await db.connect();
    try {
      return await fn(db);
    } finally {
      await db.end().catch(() => {});
    }
  }

  /** Rows in every table of each service's schema: { 'auth.vault_state': 1, ... }. */
  async rowCounts() {
    const counts = {};
    for (const service of SERVICES) {
      await this.admin(async (db) => {
        const { rows } = await db.query(
          `
          select table_schema || '.' || table_name as name,
                 (xpath('/row/c/text()', query_to_xml(format('select count(*) as c from %I.%I', table_schema, table_name), false, true, '')))[1]::text::int as rows
            from information_schema.tables where table_schema = $1 order by 1`,
          [service],
        );
        for (const row of rows) counts[row.name] = row.rows;
      }, `vault_k8s_${service}`);
    }
    return counts;
  }

  async bucketKeys() {
    const listed = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket }));
    return (listed.Contents ?? []).map((o) => o.Key);
  }

  /** A command to this run's Redis database. @param {[string, ...string[]]} command */
  async redis(command) {
    const client = new Redis({ host: '127.0.0.1', port: FORWARDS.redis[1], db: REDIS_DB, lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await client.connect();
      return await client.call(...command);
    } finally {
      client.disconnect();
    }
  }

  async close() {
    for (const child of this.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    try {
      const keys = await this.bucketKeys().catch(() => []);
      if (keys.length) await this.s3.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })) } }));
      await this.s3.send(new DeleteBucketCommand({ Bucket: this.bucket })).catch(() => {});
      await this.redis(['FLUSHDB']).catch(() => {});
      await this.admin(async (db) => {
        for (const service of SERVICES) {
          await db.query(`drop database if exists vault_k8s_${service} with (force)`);
          await db.query(`drop role if exists vault_k8s_${service}`);
        }
      });
    } catch (error) {
      this.log(`  stores: ${error.message}`);
    }
    rmSync(join(WORK, 'nats'), { recursive: true, force: true });
  }
}
