/**
 * The packages as a user installs them, for the packed-package tests: `npm pack` (with the
 * package's own prepack build) into a folder, a fresh project that depends on the tarballs, and
 * what an install weighs.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Runs npm in `cwd`; returns its standard output. */
export function npm(args: string[], cwd: string): string {
    return execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** What `npm pack` made: the tarball's path and npm's figures for it. */
export interface PackedTarball {
    path: string;
    /** Bytes of the tarball (packed). */
    size: number;
    /** Bytes of the package's files once unpacked. */
    unpackedSize: number;
    files: { path: string; size: number }[];
}

/**
 * Packs the package in `packageDir` into `destination`, after running `builds` (its npm scripts:
 * the prepack build, or the part of it this test run has not built already).
 */
export function pack(packageDir: string, destination: string, builds = ["prepack"]): PackedTarball {
    mkdirSync(destination, { recursive: true });
    // Run apart: a lifecycle script's output would go into `npm pack --json`'s.
    for (const script of builds) npm(["run", script], packageDir);
    const [report] = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", destination], packageDir)) as { filename: string; size: number; unpackedSize: number; files: { path: string; size: number }[] }[];
    return { path: join(destination, report.filename), size: report.size, unpackedSize: report.unpackedSize, files: report.files };
}

/** A fresh project in `dir` depending on `dependencies` (name to version or `file:` tarball), installed without scripts. */
export function installProject(dir: string, dependencies: Record<string, string>, extraInstallFlags: string[] = []): void {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, "src"), { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "erosion-consumer", private: true, type: "module", dependencies }, null, 2));
    npm(["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", ...extraInstallFlags], dir);
}

/** Bytes of the files under `path` (links not followed). */
export function directoryBytes(path: string): number {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return 0;
    if (!stat.isDirectory()) return stat.size;
    return readdirSync(path).reduce((sum, name) => sum + directoryBytes(join(path, name)), 0);
}

/** Megabytes with two decimals, for the printed figures. */
export function megabytes(bytes: number): string {
    return `${(bytes / 1e6).toFixed(2)} MB`;
}
