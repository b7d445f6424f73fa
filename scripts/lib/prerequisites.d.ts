// Types of prerequisites.js (plain Node ESM, run by scripts/test.mjs before anything is built).
/** Where the tests look for Chromium or Chrome (after $CHROMIUM_PATH). */
export declare const CHROMIUM_CANDIDATES: readonly string[];
/** Chromium's SwiftShader Vulkan driver (Debian's chromium package). */
export declare const SWIFTSHADER_ICD: string;
/** The Debian/Ubuntu packages the whole suite needs. */
export declare const DEBIAN_PACKAGES: readonly string[];
/** A part of the system the suite needs and this machine lacks. */
export interface MissingPrerequisite {
    readonly part: string;
    readonly debianPackage: string | null;
    readonly neededBy: string;
}
/** $CHROMIUM_PATH when it exists, else the first candidate installed, else null. */
export declare function chromiumPath(env?: NodeJS.ProcessEnv): string | null;
/** What the suite needs and this machine lacks (empty when everything is there). */
export declare function missingPrerequisites(where?: { env?: NodeJS.ProcessEnv; platform?: string; nodeVersion?: string }): MissingPrerequisite[];
/** The message for a non-empty `missing`: each part, what needs it, and the apt-get line. */
export declare function describeMissing(missing: readonly MissingPrerequisite[]): string;
