// The browser tests and the browser benchmark run Debian's Chromium (never `playwright install`).
import { CHROMIUM_FLAGS, DEFAULT_CHROMIUM_PATH } from '../../lib/compliance/chromium-flags';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;

export const CHROMIUM_ARGS = [...CHROMIUM_FLAGS];
