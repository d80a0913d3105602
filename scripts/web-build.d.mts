export declare const projectRoot: string
export declare const defaultWebRoot: string
export declare function webBuildIsCurrent(webRoot?: string): boolean
export declare function buildWeb(options?: { output?: "inherit" | 2 }): void
