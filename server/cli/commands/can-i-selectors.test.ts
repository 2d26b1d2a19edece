import { describe, expect, it } from 'vitest';
import { runCli } from '../__fixtures__/run-cli';

// can-i / who-can --field-selector (issue 16): the Node authorizer lets a node list pods only with
// spec.nodeName=<itself>; a label selector is checked and decides nothing.
const asNode = ['--as', 'system:node:gpu-h100-01', '--as-group', 'system:nodes', '--demo'];

describe('selectors on can-i and who-can', () => {
  it('a node may list pods with its own spec.nodeName selector, not unfiltered, not another node’s', async () => {
    expect((await runCli('can-i', 'list', 'pods', '-A', '--field-selector', 'spec.nodeName=gpu-h100-01', ...asNode)).code).toBe(0);
    expect((await runCli('can-i', 'list', 'pods', '-A', ...asNode)).code).toBe(1);
    expect((await runCli('can-i', 'list', 'pods', '-A', '--field-selector', 'spec.nodeName=gpu-h100-02', ...asNode)).code).toBe(1);
    const json = JSON.parse((await runCli('can-i', 'list', 'pods', '-A', '--field-selector', 'spec.nodeName==gpu-h100-01', ...asNode, '-o', 'json')).out);
    expect(json.request.fieldSelector).toEqual([{ field: 'spec.nodeName', operator: '=', value: 'gpu-h100-01' }]);
  });

  it('who-can with a field selector names the node it concerns', async () => {
    const r = await runCli('who-can', 'list', 'pods', '-A', '--field-selector', 'spec.nodeName=gpu-h100-01', '--demo', '-o', 'json');
    expect(r.code).toBe(0);
    const names = (JSON.parse(r.out).subjects as { subject: { name: string } }[]).map((e) => e.subject.name);
    expect(names).toContain('system:node:gpu-h100-01');
    expect(names).not.toContain('system:node:gpu-h100-02');
  });

  it('a label selector is checked and changes no decision; bad selectors are usage errors', async () => {
    const plain = await runCli('can-i', 'list', 'pods', '-n', 'tenant-a', '--as', 'alice', '--demo');
    const labelled = await runCli('can-i', 'list', 'pods', '-n', 'tenant-a', '--label-selector', 'app=web,tier notin (db, cache)', '--as', 'alice', '--demo');
    expect(labelled.code).toBe(plain.code);
    const bad = await runCli('can-i', 'list', 'pods', '--label-selector', 'app in (a b', '--as', 'alice', '--demo');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--label-selector');
    const badField = await runCli('can-i', 'list', 'pods', '--field-selector', 'spec.nodeName', '--as', 'alice', '--demo');
    expect(badField.code).toBe(2);
    expect(badField.err).toContain('--field-selector: invalid field selector term "spec.nodeName"');
  });
});
