// Preloaded into the dashboard's server process (bin/serve-preload.mjs, as `dra-posture serve` and
// `npm run bench:load` start `next start`). `next start` listens with Node's default
// backlog: 511 connections accepted by the kernel and waiting for the server to take them. When more
// arrive while the event loop is busy (1,000 clients opening their connections at once), Linux drops
// the overflow's handshakes and the clients retry after 1, 2, 4, 8 s: some waited past 10 s before the
// server ever saw their request. A deeper queue lets the kernel hold them until the loop takes them
// (the kernel caps it at net.core.somaxconn, 4096 on current kernels).
import net from 'node:net';

export const LISTEN_BACKLOG = 4096;

const listen = net.Server.prototype.listen;

net.Server.prototype.listen = function listenWithBacklog(...args) {
  // How Next.js calls it: listen(port, hostname), the hostname possibly undefined. Any other form is
  // passed on as it is.
  const [port, host, ...rest] = args;
  if (typeof port === 'number' && (host === undefined || typeof host === 'string') && rest.every((a) => typeof a === 'function')) {
    return listen.call(this, { port, host, backlog: LISTEN_BACKLOG }, ...rest);
  }
  return listen.apply(this, args);
};
