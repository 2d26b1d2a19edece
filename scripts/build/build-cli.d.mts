export const ROOT: string;
export const CLI_OUT: string;
export function buildCli(): Promise<void>;
