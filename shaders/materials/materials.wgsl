// materials: bedrock and loose soil (docs/simulation.md, "Materials"). The material buffer holds
// the soil's thickness at [i] and the rock's hardness factor (Q8, HARDNESS_ONE = as soft as the
// soil) at [cells + i], then the materials' batch fields (MATERIAL_PARAM_FIELDS: the same for every
// batch of a cycle), which the generated accessors named after them read (materials(),
// soilTalus(), ...). A kernel that includes this binds it: the simulation's, or a zeroed stand-in
// while the materials have never run (materials() then reads 0 and nothing else is read).
// CPU mirrors: SHADER_MIRRORS in plugin/gpu/kernelTable.ts.

// Whether the materials are on, read once an invocation (`materials()` is a storage read, and the
// droplets and rivers ask per cut part and per neighbour).
var<private> materialsOn: bool;

// The soil after its vertex's height changes by `change`: laid down when raised, taken first when
// lowered, within [0, SOIL_LIMIT]. soil >= 0, so soil + change never wraps below; above, the
// change is cut to the room left first.
fn soilAfter(soil: i32, change: i32) -> i32 {
    if (change > 0) {
        return soil + min(change, SOIL_LIMIT - soil);
    }
    return max(soil + change, 0);
}

// What an operator that would take `amount` (>= 0) of soil takes of rock of Q8 hardness
// `hardness` (>= HARDNESS_ONE): floor(amount x HARDNESS_ONE / hardness) in two parts, no product
// leaving an i32.
fn rockTaken(amount: i32, hardness: i32) -> i32 {
    let whole = amount / hardness;
    let rest = amount - whole * hardness;
    return whole * HARDNESS_ONE + (rest * HARDNESS_ONE) / hardness;
}

// A rock hardness (Q8): a vertex's factor times its bed's, floored, within [HARDNESS_ONE,
// HARDNESS_MAX]; factor = 256 a + b, each part inside an i32. A negative factor is rock a ground
// edit placed, of hardness -factor whatever the bed.
fn hardnessOf(factor: i32, bed: i32) -> i32 {
    if (factor < 0) {
        return -factor;
    }
    let product = (factor >> 8u) * bed + (((factor & 255) * bed) >> 8u);
    return clamp(product, HARDNESS_ONE, HARDNESS_MAX);
}

// The strata's bed the rock's top at (x, y) lies in (tilted by the dip; worked in 1/256 cells),
// or -1 outside the layered beds (strataBeds() > 0). Only with strata (strataThickness() > 0).
// Mirrors bedIndex (which gives null where this gives -1 for outside the layered beds).
fn strataBed(rock: i32, x: i32, y: i32) -> i32 {
    let thickness = strataThickness();
    let z = (rock >> 8u) - strataBase() - ((strataDipX() * x + strataDipY() * y + strataDipOffset()) >> 8u);
    // Floor division (WGSL's rounds toward zero).
    var bed = z / thickness;
    if (z < 0 && bed * thickness != z) {
        bed -= 1;
    }
    if (strataBeds() != 0 && (bed < 0 || bed >= strataBeds())) {
        return -1;
    }
    return bed;
}

// The hardness (Q8) of the rock at (x, y) whose top is at `rock`: with strata, the bed its top lies
// in is hard when the top 16 bits of hash4(strataSeed, bed, STRATA_STREAM, 0) fall below
// strataShare; other rock has rockHardness. Without strataBeds() every bed is layered, and a bed
// of -1 is one like the others.
fn bedHardness(rock: i32, x: i32, y: i32) -> i32 {
    if (strataThickness() == 0) {
        return rockHardness();
    }
    let bed = strataBed(rock, x, y);
    if (bed == -1 && strataBeds() != 0) {
        return rockHardness();
    }
    if ((hash4(u32(strataSeed()), u32(bed), STRATA_STREAM, 0u) >> 16u) < u32(strataShare())) {
        return strataHardness();
    }
    return rockHardness();
}

// Soil production: the soil after a thermal step weathers `weathering()` (Q16) of the way from
// `soil` to `soilDepth()` out of the rock beneath, at 1 / hardness; the surface stays put.
fn weatheredSoil(soil: i32, hardness: i32) -> i32 {
    if (weathering() == 0 || soil >= soilDepth()) {
        return soil;
    }
    let produced = rockTaken(mulQ16(soilDepth() - soil, weathering()), hardness);
    return soil + min(produced, SOIL_LIMIT - soil);
}

// The hardness (Q8) of vertex i at (x, y) whose surface is at `height`: its factor times its bed's
// (the rock under its soil).
fn vertexHardness(i: i32, x: i32, y: i32, height: i32) -> i32 {
    let cells = params.width * params.depth;
    return hardnessOf(material[cells + i], bedHardness(height - material[i], x, y));
}

// What one thermal step moves toward one neighbour with the materials on (before the mask): the
// soil's part, at most `soilShare`, over the soil's threshold; the rock's beyond it over the
// rock's threshold, at 1 / hardness.
fn thermalMaterialAmount(drop: i32, soilThreshold: i32, rockThreshold: i32, rate: i32, soilShare: i32, hardness: i32) -> i32 {
    var soilExcess = 0;
    if (drop > soilThreshold) {
        soilExcess = mulQ16(drop - soilThreshold, rate);
    }
    let soilPart = min(soilExcess, soilShare);
    var rockExcess = 0;
    if (drop > rockThreshold) {
        rockExcess = mulQ16(drop - rockThreshold, rate);
    }
    var rockPart = 0;
    if (rockExcess > soilPart) {
        rockPart = rockTaken(rockExcess - soilPart, hardness);
    }
    return soilPart + rockPart;
}

// What an operator that would cut `cut` (>= 0) from a vertex with `soil` over rock of Q8 hardness
// `hardness` cuts: the soil first, the rest at 1 / hardness.
fn materialCut(cut: i32, soil: i32, hardness: i32) -> i32 {
    let fromSoil = min(cut, soil);
    return fromSoil + rockTaken(cut - fromSoil, hardness);
}

// The rock's angle of repose (a threshold) at Q8 hardness `hardness`: the soil's, plus the way up to
// the rock option's in proportion to 1 - 1 / hardness (soft rock slides like soil, hard rock stands
// near the rock's angle), in Q8 steps, each product inside an i32.
fn rockThreshold(soilThreshold: i32, rockOption: i32, hardness: i32) -> i32 {
    let fraction = ((hardness - HARDNESS_ONE) * HARDNESS_ONE) / hardness;
    let span = rockOption - soilThreshold;
    return soilThreshold + (span >> 8u) * fraction + (((span & 255) * fraction) >> 8u);
}
