/**
 * The materials' cut (`materialCut` in ../materials.ts), shared by the WebAssembly kernels
 * (`riverWalk.as.ts`, `dropletBatch.as.ts`): the soil first, then the rock at 1 / hardness, to the
 * same integer.
 */

// `HARDNESS_ONE` (hardness.ts), written out: the wasm tests check it against the module.
export const HARDNESS_ONE: i32 = 256;

/**
 * What an operator that would cut `cut` takes from a vertex with `soil` over rock of Q8 `hardness`:
 * `materialCut`, with `rockTaken` in two parts (no product leaves an i32). A cut the soil covers,
 * and any cut at hardness 1 (`rockTaken` of anything at 256 is itself), is `cut` without the two
 * divisions: most of a batch's cuts are small parts of a brush, which the soil covers, and the two
 * divisions were most of what the materials added to a droplet's cut.
 */
@inline export function materialCut(cut: i32, soil: i32, hardness: i32): i32 {
    if (cut <= soil || hardness == HARDNESS_ONE) return cut;
    const rock = cut - soil;
    const whole = rock / hardness;
    return soil + whole * HARDNESS_ONE + ((rock - whole * hardness) * HARDNESS_ONE) / hardness;
}
