import 'server-only';
import { createHash } from 'node:crypto';
import type { Sha256 } from '@/lib/compliance/sha256';

export const nodeSha256: Sha256 = () => {
  const h = createHash('sha256');
  return {
    update: (data) => void h.update(data),
    digestHex: () => h.digest('hex'),
  };
};
