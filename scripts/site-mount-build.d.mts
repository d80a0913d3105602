export declare const SITE_MOUNT_PAGE: string
export declare const SITE_MOUNT_ASSETS: string
export declare function siteMountDefine(buildDir: string, dir?: string): Record<string, string>
export declare function buildSiteMount(buildDir: string, options?: { watch?: boolean; onRebuilt?: () => void }): Promise<unknown>
