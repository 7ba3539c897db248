#!/usr/bin/env node
// An open-loop load at a fixed rate: request i is due at start + i / rate and
// is sent then, whatever the earlier ones are doing (up to 64 open sockets),
// and its latency is counted from when it was due, so a stalled server is not
// hidden by the generator waiting for it. autocannon's `-R` instead sends
// each connection's share of a second in one burst and back-fills its
// histogram with an expected interval of 1 ms, which says little about "p99 at
// 200 requests/s". Prints one JSON line: {rps, p50, p99, errors}.
//
//   node bench/paced-load.mjs URL RATE SECONDS [COOKIE]   (WARMUP=s in the environment)
import http from 'node:http';

const [url, rateArg, secondsArg, cookie] = process.argv.slice(2);
const rate = Number(rateArg);
const seconds = Number(secondsArg);
if (!url || !(rate > 0) || !(seconds > 0)) {
  process.stderr.write('usage: paced-load.mjs URL RATE SECONDS [COOKIE]\n');
  process.exit(2);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const headers = cookie ? { cookie, 'accept-encoding': 'gzip, br' } : { 'accept-encoding': 'gzip, br' };
const warmup = Math.round(rate * Number(process.env.WARMUP ?? 2));
const total = warmup + Math.round(rate * seconds);
const latencies = [];
let errors = 0;
let sent = 0;

function send(index, dueAt) {
  const counted = index >= warmup;
  return new Promise((resolve) => {
    const request = http.get(url, { agent, headers, timeout: 10_000 }, (response) => {
      response.resume();
      response.on('end', () => {
        if (!counted) return resolve();
        if (response.statusCode === 200) latencies.push(performance.now() - dueAt);
        else errors += 1;
        resolve();
      });
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => {
      if (counted) errors += 1;
      resolve();
    });
  });
}

const start = performance.now();
let countedFrom = start;
const inFlight = [];
await new Promise((done) => {
  const tick = () => {
    const now = performance.now();
    while (sent < total && start + (sent * 1000) / rate <= now) {
      if (sent === warmup) countedFrom = start + (sent * 1000) / rate;
      inFlight.push(send(sent, start + (sent * 1000) / rate));
      sent += 1;
    }
    if (sent < total) setTimeout(tick, 1);
    else done();
  };
  tick();
});
await Promise.all(inFlight);
const elapsed = (performance.now() - countedFrom) / 1000;
agent.destroy();

latencies.sort((a, b) => a - b);
const at = (q) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10 : NaN);
process.stdout.write(`${JSON.stringify({ rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors })}\n`);
