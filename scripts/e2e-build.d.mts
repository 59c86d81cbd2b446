export declare function e2eDistDir(env?: NodeJS.ProcessEnv): string;
export declare const E2E_BUILD_ENV: Readonly<Record<string, string>>;
export declare function e2eBuildCommand(outDir: string): string;
