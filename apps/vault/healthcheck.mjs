// The embedded image's HEALTHCHECK (Dockerfile, stage vault): healthy while the
// vault on this container's PORT answers ready. Plain JavaScript, no build: a
// check every 30 s should cost a Node start and one request, not the vault's
// chunks.
const host = ['0.0.0.0', '::', ''].includes(process.env.HOST ?? '') ? '127.0.0.1' : process.env.HOST;
const url = `http://${host.includes(':') ? `[${host}]` : host}:${process.env.PORT ?? '3000'}/health/ready`;
try {
  const answer = await fetch(url, { signal: AbortSignal.timeout(4000) });
  process.exit(answer.ok ? 0 : 1);
} catch {
  process.exit(1);
}
