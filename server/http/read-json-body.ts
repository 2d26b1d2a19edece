import 'server-only';
import { ApiError } from './api-errors';
import { readBodyBytes } from './read-body';

const MAX_JSON_BYTES = 64 * 1024;

/**
 * A small JSON request body, or a 400/413 naming what is wrong with it. With `allowEmpty` an empty
 * body reads as `undefined` (routes whose body is optional).
 */
export async function readJsonBody(request: Request, limit = MAX_JSON_BYTES, { allowEmpty = false } = {}): Promise<unknown> {
  const text = new TextDecoder().decode(await readBodyBytes(request, limit));
  if (text.trim() === '') {
    if (allowEmpty) return undefined;
    throw new ApiError('bad_request', 'the request body is empty; send JSON');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('bad_request', 'the request body is not valid JSON');
  }
}
