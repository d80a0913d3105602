export declare const SERVER_BUNDLE: string
export declare function buildServer(options?: { outDir?: string }): Promise<{ bundle: string; bytes: number }>
export declare function serverBuildIsCurrent(outDir?: string): boolean
export declare function ensureServerBuild(): Promise<boolean>
