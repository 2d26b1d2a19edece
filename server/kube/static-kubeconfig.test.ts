import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadKubeconfig, loadWithClientNode } from './kubeconfig';
import { readStaticKubeconfig } from './static-kubeconfig';
import type { KubeAccess } from './kube-access';

// The static reader must send exactly what client-node would: same context, server, namespace,
// TLS material, server name, verification and Authorization header, for every kubeconfig it takes
// on; and it must leave every other kubeconfig to client-node.

let dir = '';
let ca = '';
let cert = '';
let key = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dra-kubeconfig-'));
  mkdirSync(join(dir, 'pki'));
  const selfSigned = (cn: string, name: string) =>
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${cn}`,
        '-keyout',
        join(dir, 'pki', `${name}.key`),
        '-out',
        join(dir, 'pki', `${name}.crt`),
      ],
      {
        stdio: 'ignore',
      },
    );
  selfSigned('test-ca', 'ca');
  selfSigned('alice', 'client');
  ca = readFileSync(join(dir, 'pki', 'ca.crt'), 'utf8');
  cert = readFileSync(join(dir, 'pki', 'client.crt'), 'utf8');
  key = readFileSync(join(dir, 'pki', 'client.key'), 'utf8');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const b64 = (s: string) => Buffer.from(s).toString('base64');

function write(name: string, config: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof config === 'string' ? config : stringify(config));
  return path;
}

function config(cluster: Record<string, unknown>, user: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'c1', cluster: { server: 'https://10.0.0.1:6443/', ...cluster } },
      { name: 'c2', cluster: { server: 'https://c2.example:443' } },
    ],
    users: [
      { name: 'u1', ...(user ? { user } : {}) },
      { name: 'u2', user: { token: 'other' } },
    ],
    contexts: [
      { name: 'one', context: { cluster: 'c1', user: 'u1', namespace: 'team-a' } },
      { name: 'two', context: { cluster: 'c2', user: 'u2' } },
    ],
    'current-context': 'one',
    ...extra,
  };
}

/** What a request gets: the TLS options of its agent and its headers. */
async function applied(access: KubeAccess) {
  const opts: https.RequestOptions = { headers: { Accept: 'application/json' } };
  await access.applyTo(opts);
  const agentOptions = (opts.agent as (https.Agent & { options: https.AgentOptions }) | undefined)?.options ?? {};
  const text = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
  return {
    contextName: access.contextName,
    server: access.server,
    namespace: access.namespace,
    ca: text(agentOptions.ca),
    cert: text(agentOptions.cert),
    key: text(agentOptions.key),
    servername: agentOptions.servername,
    rejectUnauthorized: agentOptions.rejectUnauthorized,
    authorization: (opts.headers as Record<string, string>).Authorization,
  };
}

describe('readStaticKubeconfig', () => {
  const taken: [string, () => string, string?][] = [
    ['a bearer token, insecure-skip-tls-verify', () => write('token.yaml', config({ 'insecure-skip-tls-verify': true }, { token: 'abc.def' }))],
    [
      'inline CA, client certificate and key (base64 data)',
      () => write('inline.yaml', config({ 'certificate-authority-data': b64(ca) }, { 'client-certificate-data': b64(cert), 'client-key-data': b64(key) })),
    ],
    [
      'CA, certificate and key files relative to the kubeconfig, and a TLS server name',
      () =>
        write(
          'files.yaml',
          config(
            { 'certificate-authority': 'pki/ca.crt', 'tls-server-name': 'api.internal' },
            { 'client-certificate': 'pki/client.crt', 'client-key': join(dir, 'pki', 'client.key') },
          ),
        ),
    ],
    ['another context chosen by name', () => write('other.yaml', config({ 'certificate-authority-data': b64(ca) }, { token: 't' })), 'two'],
    ['a user with no credentials', () => write('anonymous.yaml', config({ 'certificate-authority-data': b64(ca) }, undefined))],
    ['JSON rather than YAML', () => write('json.json', JSON.stringify(config({ 'insecure-skip-tls-verify': true }, { token: 'json' })))],
  ];

  for (const [what, file, context] of taken) {
    it(`${what}: taken on, and the request equals client-node's`, async () => {
      const path = file();
      const mine = readStaticKubeconfig({ kubeconfig: path, context });
      expect(mine, 'the static reader refused it').toBeDefined();
      expect(await applied(mine!)).toEqual(await applied(await loadWithClientNode({ kubeconfig: path, context })));
    });
  }

  it('the default file: $KUBECONFIG naming one file, else ~/.kube/config', async () => {
    const path = write('env.yaml', config({ 'insecure-skip-tls-verify': true }, { token: 'from-env' }));
    expect(readStaticKubeconfig({}, { KUBECONFIG: path })?.server).toBe('https://10.0.0.1:6443');
    const home = join(dir, 'home');
    mkdirSync(join(home, '.kube'), { recursive: true });
    writeFileSync(join(home, '.kube', 'config'), stringify(config({}, { token: 'from-home' })));
    const access = readStaticKubeconfig({}, { HOME: home });
    expect((await applied(access!)).authorization).toBe('Bearer from-home');
    expect(readStaticKubeconfig({}, { HOME: join(dir, 'nowhere') })).toBeUndefined();
  });

  const refused: [string, () => string, string?][] = [
    ['an exec plugin', () => write('exec.yaml', config({}, { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'gke-gcloud-auth-plugin' } }))],
    ['an auth provider', () => write('oidc.yaml', config({}, { 'auth-provider': { name: 'oidc', config: {} } }))],
    ['basic auth', () => write('basic.yaml', config({}, { username: 'u', password: 'p' }))],
    ['a token file', () => write('token-file.yaml', config({}, { tokenFile: '/var/run/token' }))],
    ['impersonation in the kubeconfig', () => write('as.yaml', config({}, { token: 't', as: 'bob' }))],
    ['a plain http server (client-node wants insecure-skip-tls-verify for it)', () => write('http.yaml', config({ server: 'http://127.0.0.1:8001' }, {}))],
    ['a proxy', () => write('proxy.yaml', config({ 'proxy-url': 'http://proxy:3128' }, { token: 't' }))],
    ['a field it does not know', () => write('unknown.yaml', config({ 'disable-compression': true }, { token: 't' }))],
    ['a context that is not there', () => write('ctx.yaml', config({}, { token: 't' })), 'missing'],
    [
      'a context whose user is missing',
      () => write('nouser.yaml', config({}, { token: 't' }, { contexts: [{ name: 'one', context: { cluster: 'c1', user: 'ghost' } }] })),
    ],
    ['a cluster without a server', () => write('noserver.yaml', config({}, { token: 't' }, { clusters: [{ name: 'c1', cluster: {} }] }))],
    [
      'a token that is not a string',
      () =>
        write(
          'number.yaml',
          'clusters: [{name: c, cluster: {server: "https://x"}}]\nusers: [{name: u, user: {token: 12345}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
        ),
    ],
    ['not YAML', () => write('broken.yaml', 'clusters: [\n')],
    ['no file', () => join(dir, 'absent.yaml')],
  ];

  for (const [what, file, context] of refused) {
    it(`${what}: left to client-node`, () => {
      expect(readStaticKubeconfig({ kubeconfig: file(), context })).toBeUndefined();
    });
  }

  it('several files in $KUBECONFIG are left to client-node (it merges them)', () => {
    const a = write('a.yaml', config({}, { token: 'a' }));
    const b = write('b.yaml', config({}, { token: 'b' }));
    expect(readStaticKubeconfig({}, { KUBECONFIG: `${a}:${b}` })).toBeUndefined();
  });

  it('through loadKubeconfig, refused kubeconfigs get client-node’s answer: an exec user is loaded, a missing context is a clear error', async () => {
    const exec = await loadKubeconfig({
      kubeconfig: write('exec2.yaml', config({}, { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'x' } })),
    });
    expect(exec.server).toBe('https://10.0.0.1:6443');
    await expect(loadKubeconfig({ kubeconfig: write('ctx2.yaml', config({}, { token: 't' })), context: 'missing' })).rejects.toThrow(
      'kubeconfig has no context "missing" (contexts: one, two)',
    );
    await expect(loadKubeconfig({ kubeconfig: join(dir, 'absent.yaml') })).rejects.toThrow(/cannot read kubeconfig .*absent\.yaml/);
  });

  it('requests share one keep-alive agent while the credentials stay the same', async () => {
    const access = readStaticKubeconfig({ kubeconfig: write('shared.yaml', config({ 'certificate-authority': 'pki/ca.crt' }, { token: 't' })) })!;
    const a: https.RequestOptions = {};
    const b: https.RequestOptions = {};
    await access.applyTo(a);
    await access.applyTo(b);
    expect(a.agent).toBe(b.agent);
    expect((a.agent as https.Agent & { keepAlive?: boolean }).keepAlive).toBe(true);
  });
});
