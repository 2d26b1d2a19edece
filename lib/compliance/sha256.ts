// The digest is injected so lib/ stays free of node:* (the server passes node:crypto).

export interface Sha256Hasher {
  update(data: Uint8Array): void;
  /** Lower-case hex. */
  digestHex(): string;
}

export type Sha256 = () => Sha256Hasher;

export function sha256Hex(sha256: Sha256, chunks: Iterable<Uint8Array>): string {
  const h = sha256();
  for (const c of chunks) h.update(c);
  return h.digestHex();
}
