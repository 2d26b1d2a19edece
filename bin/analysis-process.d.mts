export declare const ANALYSIS_COMMANDS: string[];
export declare const ANALYSIS_NODE_FLAGS: string[];
export declare function wantsAnalysisProcess(args: string[], execArgv?: string[]): boolean;
export declare function runInAnalysisProcess(script: string, args: string[]): Promise<number>;
