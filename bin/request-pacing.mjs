// Preloaded into the dashboard's server process (bin/serve-preload.mjs): Next.js's HTTP server starts
// its request handlers one per event-loop turn, so that connections waiting to be accepted are not
// starved while the server is busy.
//
// Why: since libuv 1.45 (Node 20.20 has 1.46) a listening socket accepts ONE connection per turn
// (libuv commit 6c692ad, "unix: don't accept() connections in a loop"; it relies on level-triggered
// epoll to be told again next turn). Node's HTTP server runs a request's handler in the turn that
// read the request, so with 1,000 keep-alive clients each turn ran ~1,000 handlers (~2 ms each in
// Next.js): one turn took seconds, and connections still in the accept queue were taken one per turn,
// about one a second. Clients of the first burst that missed the first turns (and their reconnections)
// waited past their 10 s timeout (`npm run bench:load`; strace showed one accept4 per turn and never
// EAGAIN). Starting one handler per turn keeps a turn to about one request's work, so a waiting
// connection is accepted about as often as a request is started. Requests are started in arrival
// order; the work done is the same, only spread over turns.
import http from 'node:http';

const paced = new WeakSet();

/**
 * Makes `server` start its 'request' listeners one request per event-loop turn (a setImmediate
 * queue; between two turns libuv polls, and accepts a waiting connection). A request whose
 * connection closed while it waited is dropped: nobody can read its answer.
 */
export function paceRequests(server) {
  if (paced.has(server)) return;
  paced.add(server);
  const emit = server.emit;
  /** [request, response] in arrival order. */
  const waiting = [];
  let scheduled = false;
  const startNext = () => {
    scheduled = false;
    while (waiting.length > 0) {
      const args = waiting.shift();
      if (args[0].socket?.destroyed) continue;
      emit.call(server, 'request', ...args);
      break;
    }
    if (waiting.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(startNext);
  };
  server.emit = function emitPaced(event, ...args) {
    if (event !== 'request') return emit.call(this, event, ...args);
    waiting.push(args);
    schedule();
    return true;
  };
}

// Next.js creates its server with http.createServer and calls listen(port, hostname) on it. The
// listen called on is net.Server's, looked up at call time (bin/listen-backlog.mjs replaces it too).
const netServer = Object.getPrototypeOf(http.Server.prototype);

http.Server.prototype.listen = function listenPaced(...args) {
  paceRequests(this);
  return netServer.listen.apply(this, args);
};
