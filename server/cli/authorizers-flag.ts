import 'server-only';
import { parseAuthorizerChain } from '@/lib/authz/authorize';
import type { AuthorizerName } from '@/lib/authz/types';
import { UsageError } from './usage-error';

/** `--authorizers Node,RBAC` as a chain (undefined when not given); a bad value is a usage error. */
export function authorizersFlag(value: string | undefined): AuthorizerName[] | undefined {
  if (value === undefined) return undefined;
  try {
    return parseAuthorizerChain(value);
  } catch (e) {
    throw new UsageError(`--authorizers: ${(e as Error).message}`);
  }
}
