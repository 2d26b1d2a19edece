import 'server-only';
import packageJson from '@/package.json';

/** The dra-posture version written into bundles. */
export const TOOL_VERSION: string = packageJson.version;
