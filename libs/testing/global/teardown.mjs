import { stopServers } from './servers.mjs';

export default async function globalTeardown() {
  await stopServers();
}
