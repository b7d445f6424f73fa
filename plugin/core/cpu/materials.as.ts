/**
 * The materials' cut (`materialCut` in ../materials.ts), shared by the WebAssembly kernels
 * (`riverWalk.as.ts`, `dropletBatch.as.ts`): the soil first, then the rock at 1 / hardness, to the
 * same integer.
 */

// `HARDNESS_ONE` (hardness.ts), written out: the wasm tests check it against the module.
export const HARDNESS_ONE: i32 = 256;

/** What an operator that would cut `cut` takes from a vertex with `soil` over rock of Q8 `hardness`: `materialCut`, with `rockTaken` in two parts (no product leaves an i32). */
@inline export function materialCut(cut: i32, soil: i32, hardness: i32): i32 {
    const fromSoil = cut < soil ? cut : soil;
    const rock = cut - fromSoil;
    const whole = rock / hardness;
    return fromSoil + whole * HARDNESS_ONE + ((rock - whole * hardness) * HARDNESS_ONE) / hardness;
}
