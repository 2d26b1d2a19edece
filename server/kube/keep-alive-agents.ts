import 'server-only';
import https from 'node:https';

/** The TLS identity of a connection: what decides whether two requests may share a socket. */
export type TlsIdentity = Pick<https.AgentOptions, 'ca' | 'cert' | 'key' | 'pfx' | 'passphrase' | 'servername' | 'rejectUnauthorized'>;

/**
 * One keep-alive agent per TLS identity, so a question's requests share one connection (a new agent
 * per request paid a TLS handshake each time: ten for one who-can question). Keyed by content, so a
 * client certificate rotated on disk gets a new connection.
 */
export class KeepAliveAgents {
  private readonly tls = new Map<string, https.Agent>();

  forTls(identity: TlsIdentity, extra: https.AgentOptions = {}): https.Agent {
    const { ca, cert, key, pfx, passphrase, servername, rejectUnauthorized } = identity;
    const id = [ca, cert, key, pfx, passphrase, servername, rejectUnauthorized].map((v) => (v === undefined ? '' : String(v))).join('\u0000');
    let agent = this.tls.get(id);
    if (!agent) this.tls.set(id, (agent = new https.Agent({ ...extra, ...identity, keepAlive: true })));
    return agent;
  }
}
