// Whether something accepts TCP connections at host:port within a second: the
// readiness probe of the servers the scripts and the cluster tier start.
import { connect } from 'node:net';

/** @param {string} host @param {number} port @returns {Promise<boolean>} */
export function tcpAnswers(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 1000 });
    socket.on('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
