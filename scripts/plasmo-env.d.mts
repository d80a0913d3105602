export declare function plasmoEnvFiles(browser: string, mode: string, tag: string): string[]
export declare function plasmoEnv(buildDir: string, dir?: string): Record<string, string | undefined>
export declare function buildMode(buildDir: string): "development" | "production"
