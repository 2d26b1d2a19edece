import 'server-only';

/** Every CLI command, in help order: main.ts dispatches them, completion offers them, each has --help. */
export const COMMAND_NAMES = [
  'can-i',
  'who-can',
  'simulate',
  'report',
  'build-role',
  'export',
  'verify',
  'diff',
  'serve',
  'audit-policy',
  'checks',
  'completion',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];
