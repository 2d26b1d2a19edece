import { describe, expect, it } from 'vitest';
import { exposedRuntimeSockets } from './runtime-sockets';

describe('exposedRuntimeSockets', () => {
  it.each([
    ['/var/run/nri', ['nri']],
    ['/run/nri/nri.sock', ['nri']],
    ['/var/run/containerd/containerd.sock', ['runtime']],
    ['/run/containerd', ['runtime']],
    ['/var/run/crio/crio.sock', ['runtime']],
    ['/var/run/docker.sock', ['runtime']],
    ['/run/cri-dockerd.sock', ['runtime']],
    ['/run/k3s', ['runtime']],
    ['/run', ['runtime', 'nri']],
    ['/var/run/', ['runtime', 'nri']],
    ['/var', ['runtime', 'nri']],
    ['//var//run/../run/nri', ['nri']],
  ])('%s exposes %j', (path, kinds) => {
    expect(exposedRuntimeSockets(path)).toStrictEqual(kinds);
  });

  it.each(['/', '/var/run/cdi', '/var/run/netns', '/var/lib', '/run/containerd/s', '/run/nri-other', '/etc/containerd'])('%s exposes none', (path) => {
    expect(exposedRuntimeSockets(path)).toStrictEqual([]);
  });
});
