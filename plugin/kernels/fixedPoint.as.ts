/**
 * Fixed point and the linear memory's typed reads and writes, shared by the WebAssembly kernels
 * (`riverWalk.as.ts`, `dropletBatch.as.ts`): each rule as its namesake in `../fixedPoint.ts`
 * computes it, to the same integer.
 */

// `FIXED_ONE` (fixedPoint.ts), written out: AssemblyScript compiles apart from the TypeScript;
// the wasm tests check it against the module.
export const FIXED_ONE: i32 = 65536;

@inline export function getI32(grid: i32, i: i32): i32 { return load<i32>(grid + (i << 2)); }
@inline export function setI32(grid: i32, i: i32, value: i32): void { store<i32>(grid + (i << 2), value); }
@inline export function getF64(grid: i32, i: i32): f64 { return load<f64>(grid + (i << 3)); }
@inline export function setF64(grid: i32, i: i32, value: f64): void { store<f64>(grid + (i << 3), value); }
@inline export function addF64(grid: i32, i: i32, value: f64): void { store<f64>(grid + (i << 3), load<f64>(grid + (i << 3)) + value); }
@inline export function getU8(grid: i32, i: i32): i32 { return <i32>load<u8>(grid + i); }
@inline export function setU8(grid: i32, i: i32, value: i32): void { store<u8>(grid + i, <u8>value); }
@inline export function minI32(a: i32, b: i32): i32 { return a < b ? a : b; }
@inline export function maxI32(a: i32, b: i32): i32 { return a > b ? a : b; }

/** `mulQ16` (fixedPoint.ts): floor(a * f / 2^16) in two 32-bit products. */
@inline export function mulQ16(a: i32, f: i32): i32 {
    return (a >> 16) * f + <i32>(<u32>((a & 0xffff) * f) >> 16);
}

/** `mulQ16Sat` (fixedPoint.ts), in doubles as there. */
@inline export function mulQ16Sat(a: i32, b: i32): i32 {
    const product = <f64>a * <f64>b * 0.0000152587890625;
    return product >= <f64>0x3fffffff ? 0x3fffffff : <i32>product;
}

