import { describe, expect, it } from 'vitest';
import { UsageError } from '../usage-error';
import { isLoopback, runServe } from './serve';

// `serve --public-url`: only an http(s) URL is taken (the request gate allows its host); a bad one is a
// usage error before anything starts.
const io = { out: () => {}, err: () => {} };

describe('serve --public-url', () => {
  it.each(['not a url', 'ftp://posture.example.com', 'javascript:alert(1)', '/relative'])('refuses %s', async (value) => {
    await expect(runServe(['--public-url', value], io)).rejects.toThrow(UsageError);
    await expect(runServe(['--public-url', value], io)).rejects.toThrow(/--public-url expects/);
  });
});

// Issue 25 item 1: no sign-in is the default only where nobody else can connect.
describe('serve --auth', () => {
  it.each(['0.0.0.0', '::', '10.0.0.5', 'posture.example.com'])('refuses --host %s without --auth kubernetes or --unsafe-no-auth', async (host) => {
    await expect(runServe(['--host', host], io)).rejects.toThrow(/--auth kubernetes/);
    await expect(runServe(['--host', host, '--auth', 'none'], io)).rejects.toThrow(UsageError);
  });

  it('refuses an unknown mode and review flags without --auth kubernetes', async () => {
    await expect(runServe(['--auth', 'basic'], io)).rejects.toThrow(/--auth expects none or kubernetes/);
    await expect(runServe(['--auth-kubeconfig', '/tmp/k'], io)).rejects.toThrow(/go with --auth kubernetes/);
  });

  it('tells loopback bind addresses from the others', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', '128.0.0.1', 'localhost.example.com', '127.0.0.1.nip.io']) expect(isLoopback(h), h).toBe(false);
  });
});
