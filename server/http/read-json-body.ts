import 'server-only';
import { ApiError } from './api-errors';

const MAX_JSON_BYTES = 64 * 1024;

/** A small JSON request body, or a 400/413 naming what is wrong with it. */
export async function readJsonBody(request: Request, limit = MAX_JSON_BYTES): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw new ApiError('too_large', `request body too large: ${declared} bytes, the limit is ${limit}`);
  const text = await request.text();
  if (text.length > limit) throw new ApiError('too_large', `request body too large: more than ${limit} bytes`);
  if (text.trim() === '') throw new ApiError('bad_request', 'the request body is empty; send JSON');
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('bad_request', 'the request body is not valid JSON');
  }
}
