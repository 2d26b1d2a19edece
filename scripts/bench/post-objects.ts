import https from 'node:https';

/** POSTs objects to a test control plane as admin, `inFlight` at a time on keep-alive connections; 409 (exists) is fine. */
export async function postObjects(cp: { url: string; tokens: Record<string, string> }, jobs: [path: string, body: unknown][], inFlight = 8): Promise<void> {
  const agent = new https.Agent({ keepAlive: true, maxSockets: inFlight, rejectUnauthorized: false });
  const base = new URL(cp.url);
  const post = (path: string, body: unknown) =>
    new Promise<void>((resolve, reject) => {
      const payload = JSON.stringify(body);
      const req = https.request(
        {
          hostname: base.hostname,
          port: base.port,
          path,
          method: 'POST',
          agent,
          headers: { Authorization: `Bearer ${cp.tokens.admin}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () =>
            res.statusCode! < 300 || res.statusCode === 409 ? resolve() : reject(new Error(`POST ${path}: ${res.statusCode} ${text.slice(0, 300)}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < jobs.length) {
          const [p, b] = jobs[next++];
          await post(p, b);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
}
