import 'server-only';
import { stringify } from 'yaml';

// The YAML writer for `-o yaml`, in a module of its own so that a command can load it on demand
// (`await import('../yaml-output')`) and the bundler resolves the named export: a dynamic import
// of the yaml package itself gave the CLI bundle a namespace without `stringify`.

/** A value as YAML, every repeated object written out (no anchors or aliases). */
export function toYaml(value: unknown): string {
  return stringify(value, { aliasDuplicateObjects: false });
}
