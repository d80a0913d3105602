export declare const SITE_TAB_PAGE: string
export declare const SITE_TAB_ASSETS: string
export declare function siteTabDefine(buildDir: string, dir?: string): Record<string, string>
export declare function buildSiteTab(buildDir: string, options?: { watch?: boolean; onRebuilt?: () => void }): Promise<unknown>
