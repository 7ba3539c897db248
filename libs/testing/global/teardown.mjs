import { stopContainers } from './servers.mjs';

export default async function globalTeardown() {
  await stopContainers();
}
