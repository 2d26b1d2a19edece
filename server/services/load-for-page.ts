import 'server-only';
import { sourceFailureMessage } from '@/server/http/api-errors';

export type PageLoad<T> = { ok: true; data: T } | { ok: false; message: string };

/**
 * A page's data, or why the cluster source could not give it: pages then render a notice under the
 * shell's banner (with the way to /sources) instead of failing as a whole. Anything that is not a
 * source failure still throws, to the error boundary.
 */
export async function loadForPage<T>(load: () => Promise<T>): Promise<PageLoad<T>> {
  try {
    return { ok: true, data: await load() };
  } catch (error) {
    const message = sourceFailureMessage(error);
    if (message === undefined) throw error;
    return { ok: false, message };
  }
}
