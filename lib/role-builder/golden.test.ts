import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBundle } from './build-bundle';
import { GOLDEN_INPUTS } from './golden-inputs';
import { renderBundleYaml } from './render-yaml';
import { PERSONA_IDS } from './types';

// One reviewed YAML per persona. Regenerate with UPDATE_GOLDEN=1 only, then read the diff by hand
// against /work/shared/reference (authz-semantics §8, dra-facts §7-§10).
const DIR = join(import.meta.dirname, '__golden__');

describe('golden YAML per persona', () => {
  for (const id of PERSONA_IDS) {
    it(id, () => {
      const yaml = renderBundleYaml(buildBundle(GOLDEN_INPUTS[id]));
      const file = join(DIR, `${id}.yaml`);
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, yaml);
      expect(yaml).toBe(readFileSync(file, 'utf8'));
    });
  }
});
