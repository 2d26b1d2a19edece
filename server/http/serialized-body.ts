import 'server-only';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

// A large response body that stays the same for a while (the report of one analysis version):
// serialized and gzipped once, and answered from those bytes to every request, with a strong ETag
// and 304 for If-None-Match. Serializing the 3.3 MB report of a 50,000-object snapshot per request
// gave p99 3.9 s at 50 clients; Next.js gzipping it again per request held 10 clients to 7 req/s.
//
// Next.js drops Content-Encoding from a route handler's Response (next/dist/server/send-response.js)
// and gzips on its own unless the header is already set, so the `Content-Encoding: gzip` label comes
// from next.config.js (REPORT_GZIP_HEADERS) for requests whose Accept-Encoding matches GZIP_ACCEPTED,
// and a route that uses this sends gzip bytes for exactly those requests (withGzipLabel).

/** The Accept-Encoding pattern next.config.js labels gzip (Next.js anchors it with ^…$). */
export const GZIP_ACCEPTED = '.*\\bgzip\\b.*';
const gzipAccepted = new RegExp(`^${GZIP_ACCEPTED}$`);

export interface SerializedBody {
  /** Strong validator of the identity bytes (RFC 9110 §8.8.3); the gzip bytes get their own. */
  etag: string;
  bytes: Buffer;
  gzip: Buffer;
}

const cache = new WeakMap<object, SerializedBody>();
/** Responses whose body is already gzip (not to be compressed again by withGzipLabel). */
const gzipBodies = new WeakSet<Response>();

/**
 * The serialized body for `key` (an object that lives exactly as long as the content, such as a
 * report), produced on first use. Synchronous, so concurrent first requests cannot each serialize.
 */
export function serializedBody(key: object, chunks: () => Iterable<string>): SerializedBody {
  let entry = cache.get(key);
  if (!entry) {
    const parts: Buffer[] = [];
    for (const chunk of chunks()) parts.push(Buffer.from(chunk, 'utf8'));
    const bytes = Buffer.concat(parts);
    entry = { etag: `"${createHash('sha256').update(bytes).digest('base64url')}"`, bytes, gzip: gzipSync(bytes) };
    cache.set(key, entry);
  }
  return entry;
}

/** The one path next.config.js labels (REPORT_GZIP_HEADERS.source). */
export const GZIP_LABELLED_PATH = '/api/v1/report';

export function acceptsGzip(request: { headers: Headers }): boolean {
  return gzipAccepted.test(request.headers.get('accept-encoding') ?? '');
}

/**
 * Will next.config.js label the answer to this request `Content-Encoding: gzip`? Then whoever
 * answers it, the route or proxy.ts refusing it, must send gzip bytes.
 */
export function getsGzipLabel(request: { headers: Headers }, pathname: string): boolean {
  return pathname === GZIP_LABELLED_PATH && acceptsGzip(request);
}

/** The same answer with its body gzipped (small answers: error envelopes). */
export async function gzipped(response: Response): Promise<Response> {
  if (response.body === null) return response;
  const bytes = gzipSync(Buffer.from(await response.arrayBuffer()));
  return new Response(streamOf(bytes), { status: response.status, headers: response.headers });
}

const gzipTag = (body: SerializedBody) => `${body.etag.slice(0, -1)}-gzip"`;

/** Does If-None-Match name these bytes in either coding (RFC 9110 §13.1.2 compares weakly)? */
function matches(ifNoneMatch: string | null, body: SerializedBody): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const tags = [body.etag, gzipTag(body)];
  return ifNoneMatch.split(',').some((t) => tags.includes(t.trim().replace(/^W\//, '')));
}

/** 200 with the bytes (gzip ones when the request accepts gzip), or 304 when the client already has them. */
export function serializedBodyResponse(request: Request, body: SerializedBody, headers: Record<string, string>): Response {
  const gzip = acceptsGzip(request);
  const common: Record<string, string> = { ...headers, ETag: gzip ? gzipTag(body) : body.etag, Vary: 'Accept-Encoding' };
  if (matches(request.headers.get('if-none-match'), body)) return new Response(null, { status: 304, headers: common });
  const response = new Response(streamOf(gzip ? body.gzip : body.bytes), { status: 200, headers: common });
  if (gzip) gzipBodies.add(response);
  return response;
}

/**
 * For a route whose answers next.config.js labels `Content-Encoding: gzip`: any other answer (an
 * error envelope) is gzipped too when the request accepts gzip, so that the label is never a lie.
 */
export function withGzipLabel<C>(handler: (request: Request, context: C) => Promise<Response>): (request: Request, context: C) => Promise<Response> {
  return async (request, context) => {
    const response = await handler(request, context);
    return !acceptsGzip(request) || gzipBodies.has(response) ? response : gzipped(response);
  };
}

// A stream over the shared bytes: a Uint8Array body would be copied per response (undici's
// extractBody), 1,000 copies of a multi-megabyte report under load.
function streamOf(bytes: Buffer): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
      controller.close();
    },
  });
}
