export declare function analysisNodeFlags(cores?: number): string[];
export declare function childAnalysisFlags(execArgv?: string[], nodeOptions?: string, cores?: number): string[];
export declare function wantsAnalysisProcess(args: string[], execArgv?: string[], nodeOptions?: string): boolean;
export declare function runInAnalysisProcess(script: string, args: string[]): Promise<number | undefined>;
