export declare const ENGINE_ASSETS: Record<string, string[]>
export declare const BUNDLE_ENTRIES: { pageIndex: string; pageTranslation: string; siteBridge: string }
export declare const GECKO_ID: string
export declare const GECKO_MIN_VERSION: string
export declare function copyEngineAssets(buildDir: string): { files: number; bytes: number }
export declare function firefoxManifest(manifest: Record<string, unknown>, origins: string[], bridgeFile: string): Record<string, unknown>
export declare function writeSiteOrigins(buildDir: string, target?: string): Promise<string[]>
export declare function buildPageIndex(buildDir: string): Promise<number>
export declare function siteOriginsReport(buildDir: string, origins: string[]): Promise<string>
