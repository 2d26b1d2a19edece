import { describe, expect, it } from 'vitest';
import { crossOriginReason, gateConfig, gateConfigFromEnv, gateRefusal } from './request-gate';

function req(method: string, headers: Record<string, string>) {
  return { method, headers: new Headers(headers) };
}

describe('gateRefusal: Host allowlist (DNS rebinding)', () => {
  const loopback = gateConfig('127.0.0.1', undefined);

  it('answers loopback names and IP literals, any port', () => {
    for (const host of ['localhost:3000', 'LOCALHOST', 'localhost.:3000', '127.0.0.1:3000', '[::1]:3000', '10.0.0.7', '0x7f000001:3000', '[fe80::1]'])
      expect(gateRefusal(req('GET', { host }), loopback), host).toBeUndefined();
  });

  it('refuses foreign names, a missing Host and junk with 421', () => {
    for (const host of [
      'attacker.example:3000',
      'attacker.example',
      '127.0.0.1.attacker.example',
      'localhost.attacker.example',
      'a@localhost',
      'localhost/x',
      '',
    ])
      expect(gateRefusal(req('GET', host ? { host } : {}), loopback)?.status, host).toBe(421);
  });

  it('adds --host (unless it is a wildcard) and the --public-url host', () => {
    expect(gateRefusal(req('GET', { host: 'dash.internal:8080' }), gateConfig('dash.internal', undefined))).toBeUndefined();
    expect(gateRefusal(req('GET', { host: 'posture.example.com' }), gateConfig('0.0.0.0', 'https://posture.example.com/base'))).toBeUndefined();
    expect(gateRefusal(req('GET', { host: 'other.example.com' }), gateConfig('0.0.0.0', 'https://posture.example.com'))?.status).toBe(421);
    expect([...gateConfig('::', undefined).hostnames]).not.toContain('[::]');
    expect(gateConfig('::1', undefined).hostnames.has('[::1]')).toBe(true);
  });

  it('reads the configuration serve passes in the environment', () => {
    const config = gateConfigFromEnv({ DRA_POSTURE_HOST: '0.0.0.0', DRA_POSTURE_PUBLIC_URL: 'https://posture.example.com' });
    expect(config.hostnames.has('posture.example.com')).toBe(true);
    expect(config.publicOrigins.has('https://posture.example.com')).toBe(true);
    expect(gateConfigFromEnv({}).hostnames.has('posture.example.com')).toBe(false);
  });
});

describe('gateRefusal: writes must be same-origin', () => {
  const config = gateConfig('127.0.0.1', 'https://posture.example.com');
  const host = '127.0.0.1:3000';

  it('refuses cross-site Origin, Origin: null, cross-site fetch metadata and a bare write with 403', () => {
    const hostile: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: `http://${host}` },
      {},
      { origin: 'http://127.0.0.1:3001' },
    ];
    for (const headers of hostile)
      for (const method of ['POST', 'DELETE', 'PUT', 'PATCH'])
        expect(gateRefusal(req(method, { host, ...headers }), config)?.status, `${method} ${JSON.stringify(headers)}`).toBe(403);
  });

  it('lets same-origin writes and every GET through', () => {
    expect(gateRefusal(req('POST', { host, origin: `http://${host}` }), config)).toBeUndefined();
    expect(gateRefusal(req('POST', { host, 'sec-fetch-site': 'same-origin' }), config)).toBeUndefined();
    expect(gateRefusal(req('GET', { host, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }), config)).toBeUndefined();
  });

  it('accepts the --public-url origin when a reverse proxy rewrites Host', () => {
    expect(crossOriginReason(new Headers({ host, origin: 'https://posture.example.com' }), config.publicOrigins)).toBeUndefined();
    expect(crossOriginReason(new Headers({ host, origin: 'http://posture.example.com' }), config.publicOrigins)).toBe('cross-origin request refused');
  });
});
