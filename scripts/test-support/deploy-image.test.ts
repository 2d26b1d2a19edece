import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

// No container runtime here to build the image: this reads the definition and the manifests that use it.
const deploy = join(process.cwd(), 'deploy');
const containerfile = readFileSync(join(deploy, 'Containerfile'), 'utf8');
const instructions = containerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const froms = instructions.map((l, i) => [l, i] as const).filter(([l]) => /^FROM /i.test(l));
const finalStage = instructions.slice(froms[froms.length - 1][1]);

describe('deploy/Containerfile', () => {
  it('is multi-stage, and the final stage is distroless: no shell, no RUN, a non-root user', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    expect(finalStage[0]).toMatch(/^FROM gcr\.io\/distroless\/nodejs\d+-debian\d+:nonroot$/);
    expect(finalStage.filter((l) => /^RUN /i.test(l))).toEqual([]);
    const user = finalStage.filter((l) => /^USER /i.test(l)).pop();
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)(:|$)/i);
    // Exec form only: a shell-form ENTRYPOINT or CMD would need /bin/sh.
    for (const l of finalStage.filter((x) => /^(ENTRYPOINT|CMD) /i.test(x))) expect(l).toMatch(/^(ENTRYPOINT|CMD) \[/i);
  });

  it('builds what serve and the CLI need at run time, with the lock file', () => {
    expect(containerfile).toMatch(/npm ci\b/);
    expect(containerfile).toContain('next build');
    expect(containerfile).toContain('scripts/build/build-cli.mjs');
    expect(containerfile).toMatch(/npm prune --omit=dev/);
  });
});

describe('deploy/ kustomization', () => {
  it('lists every manifest, and the Deployment runs the image as the Containerfile builds it', () => {
    const k = parse(readFileSync(join(deploy, 'kustomization.yaml'), 'utf8')) as { resources: string[]; images: { name: string }[] };
    const manifests = readdirSync(deploy).filter((f) => /^\d\d-.*\.yaml$/.test(f));
    expect([...k.resources].sort()).toEqual(manifests.sort());
    const docs = parseAllDocuments(readFileSync(join(deploy, '20-deployment.yaml'), 'utf8')).map((d) => d.toJS() as Record<string, any>);
    const deployment = docs.find((d) => d.kind === 'Deployment')!;
    const pod = deployment.spec.template.spec;
    const c = pod.containers[0];
    expect(k.images.map((i) => i.name)).toContain(c.image.split(':')[0]);
    expect(c.command[0]).toBe('/nodejs/bin/node');
    expect(c.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBe(65532);
    // Bound to every interface, so the request gate needs the name in-cluster clients use (a Service name is not loopback).
    const args: string[] = c.args;
    expect(args[args.indexOf('--host') + 1]).toBe('0.0.0.0');
    expect(new URL(args[args.indexOf('--public-url') + 1]).hostname).toBe('dra-posture.dra-posture.svc');
    // Not loopback, so not without sign-in (serve refuses --auth none there).
    expect(args[args.indexOf('--auth') + 1]).toBe('kubernetes');
  });
});
