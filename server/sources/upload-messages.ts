import 'server-only';
import type { WireError } from './upload-wire-error';

// What the upload route and its parse worker (upload-worker.ts) say to each other. The worker says
// `ready` once its code has loaded; a snapshot is one message of bytes (transferred, not copied); an
// audit log arrives as chunks, each acknowledged when the parser has taken it (so the route reads the
// request no faster than the worker parses it); the answer is the parsed value (a structured clone)
// or the error.

export type UploadJob =
  { job: 'snapshot'; bytes: Uint8Array; name: string; maxBytes: number } | { job: 'audit'; name: string } | { chunk: Uint8Array } | { end: true };

export type UploadReply = { ready: true } | { ack: number } | { value: unknown } | { error: WireError };
