import { describe, expect, it } from 'vitest';
import { UsageError } from '../usage-error';
import { runServe } from './serve';

// `serve --public-url`: only an http(s) URL is taken (the request gate allows its host); a bad one is a
// usage error before anything starts.
const io = { out: () => {}, err: () => {} };

describe('serve --public-url', () => {
  it.each(['not a url', 'ftp://posture.example.com', 'javascript:alert(1)', '/relative'])('refuses %s', async (value) => {
    await expect(runServe(['--public-url', value], io)).rejects.toThrow(UsageError);
    await expect(runServe(['--public-url', value], io)).rejects.toThrow(/--public-url expects/);
  });
});
