/**
 * The shapes of the realism claims (scripts/realism/claims.ts holds the claims, materialClaims.ts
 * those of the materials): apart, so that neither file imports the other round a circle.
 */
import type { RealismRun } from "./measure.js";

/** Full size (the report) or CI size (the tests). */
export type RealismSize = "full" | "ci";

/** One measured figure of a claim against its bound. */
export interface Check {
    readonly what: string;
    readonly value: number;
    /** The bound, as text (e.g. "<= 1.25"). */
    readonly bound: string;
    readonly passed: boolean;
}

/** What checking one claim found. */
export interface ClaimResult {
    readonly id: string;
    readonly issue: string;
    readonly title: string;
    readonly checks: readonly Check[];
    readonly runs: readonly RealismRun[];
    readonly passed: boolean;
}

/** A threshold the repository claims. */
export interface Claim {
    readonly id: string;
    /** The issue that set it. */
    readonly issue: string;
    readonly title: string;
    evaluate(size: RealismSize): Promise<ClaimResult>;
}
