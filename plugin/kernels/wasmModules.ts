/**
 * What the WebAssembly kernels' glue (`riverWalkWasm.ts`, `dropletBatchWasm.ts`) shares: compiling
 * a module carried as base64, and growing a memory.
 */

/** Where the modules' data starts (`--memoryBase` in scripts/build-wasm.mjs): each glue's control block lies below it. */
export const WASM_MEMORY_BASE = 65536;

const PAGE = 65536;

/**
 * Compiles a module carried as base64, synchronously (the modules are a few kilobytes); null where
 * this thread cannot (no WebAssembly, a page's content security policy, a main thread that refuses
 * synchronous compiles): the caller then runs its TypeScript kernel, with the same result.
 */
export function compileBase64Module(base64: string): WebAssembly.Module | null {
    try {
        const text = atob(base64);
        const bytes = new Uint8Array(text.length);
        for (let k = 0; k < text.length; k++) bytes[k] = text.charCodeAt(k);
        return new WebAssembly.Module(bytes);
    } catch {
        return null;
    }
}

/** Grows `memory` to hold `bytes` (throws a RangeError past what the engine gives a memory). */
export function growMemoryTo(memory: WebAssembly.Memory, bytes: number): void {
    const missing = Math.ceil(bytes / PAGE) - memory.buffer.byteLength / PAGE;
    if (missing > 0) memory.grow(missing);
}
