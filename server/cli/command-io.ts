import 'server-only';

export interface CommandIO {
  out(text: string): void;
  err(text: string): void;
}

export const processIO: CommandIO = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};
