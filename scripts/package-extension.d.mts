export type Browser = "chrome" | "firefox"
export declare const BROWSER_BUILDS: Record<Browser, { dir: string; script: string }>
export declare function zipName(kind: Browser | "source", version: string): string
export declare function buildProblems(dir: string, version: string): Promise<string[]>
export declare function siteMountProblems(dir: string): string[]
export declare function packageExtensions(options?: {
  root?: string
  outDir?: string
  browsers?: Browser[]
}): Promise<Partial<Record<Browser, string>> & { source: string }>
export declare function zipEntries(zipPath: string): string[]
export declare function unzipTo(zipPath: string, dir: string): string
export declare function loopbackSiteTrust(dir: string): Promise<string[]>
