/**
 * The shader code of `TerrainErosionMaterialPlugin`, GLSL (WebGL2) and WGSL (WebGPU).
 *
 * The maps are RGBA32F and R32F textures, which are not filterable on every device, so the shader
 * filters them itself: it finds the fragment's place in the field's vertex grid from its world
 * position (`erosionGridX` and `erosionGridY` are the affine maps from world position to grid column
 * and row), loads the four texels around it and interpolates bilinearly. Texel (i, j) is field
 * vertex (i, j), so the maps line up with the mesh at any zoom, without the square blotches of
 * nearest sampling and without blurring them.
 *
 * The materials texture (soil, exposed bed, hardness) colours the ground first: rock by its bed's
 * hardness (soft to hard colour, alternate beds a little lighter and darker, so the strata read as
 * bands), then soil over it by thickness. The wear and wet tints go over that, and the sediment
 * tint where soil is not shown (soil is what was laid down).
 */

/** Map views, in `mapView`'s order. */
export const EROSION_MAP_VIEWS = ["none", "water", "wear", "deposition", "direction", "drainage", "soil", "layers"] as const;

/** One of the map views. */
export type ErosionMapView = (typeof EROSION_MAP_VIEWS)[number];

/** Uniforms of the plugin, in declaration order: name and float count. */
export const EROSION_UNIFORMS = [
    ["erosionGridX", 4],
    ["erosionGridY", 4],
    ["erosionGridSize", 2],
    // Scales: water visits, wear and deposition (local units), drainage area (cells).
    ["erosionScales", 4],
    // Strengths (0 where an effect is off): wet, rock, sediment; then the wet source (0 water, 1 drainage).
    ["erosionStrengths", 4],
    ["erosionWetColor", 3],
    ["erosionRockColor", 3],
    ["erosionSedimentColor", 3],
    ["erosionMapView", 1],
    // The materials: soil thickness (local units) and rock hardness (times the soil's) shown in full; soil and layer strengths.
    ["erosionMaterialScales", 4],
    ["erosionSoilColor", 3],
    ["erosionSoftRockColor", 3],
    ["erosionHardRockColor", 3],
] as const;

const TYPES = { 1: ["float", "f32"], 2: ["vec2", "vec2f"], 3: ["vec3", "vec3f"], 4: ["vec4", "vec4f"] } as const;

/** The uniform declarations for the fragment shader. */
export function uniformDeclarations(wgsl: boolean): string {
    return EROSION_UNIFORMS.map(([name, size]) => (wgsl ? `uniform ${name}: ${TYPES[size][1]};\n` : `uniform ${TYPES[size][0]} ${name};\n`)).join("");
}

const GLSL_DEFINITIONS = `
#ifdef EROSIONMAPS
uniform sampler2D erosionMaps;
uniform sampler2D erosionArea;
uniform sampler2D erosionMaterials;
// Texel (i, j) is field vertex (i, j): the four around the fragment's grid position, interpolated.
vec4 erosionBilinear(sampler2D map, vec2 grid) {
    vec2 size = erosionGridSize;
    vec2 g = clamp(grid, vec2(0.0), size - 1.0);
    vec2 i0 = floor(g);
    vec2 f = g - i0;
    ivec2 a = ivec2(i0);
    ivec2 b = ivec2(min(i0 + 1.0, size - 1.0));
    vec4 v00 = texelFetch(map, ivec2(a.x, a.y), 0);
    vec4 v10 = texelFetch(map, ivec2(b.x, a.y), 0);
    vec4 v01 = texelFetch(map, ivec2(a.x, b.y), 0);
    vec4 v11 = texelFetch(map, ivec2(b.x, b.y), 0);
    return mix(mix(v00, v10, f.x), mix(v01, v11, f.x), f.y);
}
vec4 erosionNearest(sampler2D map, vec2 grid) {
    return texelFetch(map, ivec2(floor(clamp(grid, vec2(0.0), erosionGridSize - 1.0) + 0.5)), 0);
}
float erosionHardness(vec4 material) {
    return clamp(log(max(material.b, 1.0)) / log(max(erosionMaterialScales.y, 1.0001)), 0.0, 1.0);
}
// The rock's colour by its bed: soft to hard by hardness (log scale), odd beds darker.
vec3 erosionRock(vec4 material, float bed) {
    float band = bed < 0.0 ? 1.0 : (mod(bed, 2.0) < 0.5 ? 1.06 : 0.92);
    return mix(erosionSoftRockColor, erosionHardRockColor, erosionHardness(material)) * band;
}
vec3 erosionApply(vec3 base, vec3 positionW) {
    vec4 p = vec4(positionW, 1.0);
    vec2 grid = vec2(dot(erosionGridX, p), dot(erosionGridY, p));
    vec4 maps = erosionBilinear(erosionMaps, grid);
    vec4 nearest = erosionNearest(erosionMaps, grid);
    float area = erosionBilinear(erosionArea, grid).r;
    vec4 material = erosionBilinear(erosionMaterials, grid);
    // Rounded from the interpolated bed: bed edges run as lines between texels, not texel squares.
    float bed = floor(material.g + 0.5);
    float water = clamp(log(1.0 + maps.r) / log(1.0 + max(erosionScales.x, 1.0)), 0.0, 1.0);
    float wear = clamp(maps.g / max(erosionScales.y, 1e-6), 0.0, 1.0);
    float sediment = clamp(maps.b / max(erosionScales.z, 1e-6), 0.0, 1.0);
    float river = clamp(log(max(area, 1.0)) / log(max(erosionScales.w, 2.0)), 0.0, 1.0);
    float soil = clamp(material.r / max(erosionMaterialScales.x, 1e-6), 0.0, 1.0);
    float view = erosionMapView;
    if (view > 0.5) {
        if (view < 1.5) return mix(vec3(0.95), vec3(0.05, 0.25, 0.7), water);
        if (view < 2.5) return mix(vec3(0.95), vec3(0.7, 0.15, 0.05), wear);
        if (view < 3.5) return mix(vec3(0.95), vec3(0.55, 0.4, 0.05), sediment);
        if (view < 4.5) return nearest.a < 0.0 ? vec3(0.1) : 0.5 + 0.5 * cos(6.2831 * (nearest.a / 8.0 + vec3(0.0, 0.33, 0.67)));
        if (view < 5.5) return mix(base * 0.6 + 0.35, vec3(0.05, 0.2, 0.65), smoothstep(0.35, 1.0, river));
        if (view < 6.5) return mix(vec3(0.95), vec3(0.35, 0.22, 0.08), soil);
        return bed < 0.0
            ? erosionRock(material, bed)
            : (0.55 + 0.4 * cos(6.2831 * (bed * 0.381966 + vec3(0.0, 0.33, 0.67)))) * mix(0.6, 1.0, erosionHardness(material));
    }
    vec3 colour = mix(base, erosionRock(material, bed), erosionMaterialScales.w * material.a * (1.0 - soil));
    colour = mix(colour, erosionSoilColor, erosionMaterialScales.z * material.a * soil);
    float wet = erosionStrengths.w > 0.5 ? smoothstep(0.35, 1.0, river) : smoothstep(0.6, 0.95, water);
    colour = mix(colour, erosionRockColor, wear * erosionStrengths.y);
    // Where soil is shown, it is what was laid down: the sediment tint gives way to it.
    colour = mix(colour, erosionSedimentColor, sediment * erosionStrengths.z * (1.0 - material.a * step(0.001, erosionMaterialScales.z)));
    return mix(colour, erosionWetColor, wet * erosionStrengths.x);
}
#endif
`;

const WGSL_DEFINITIONS = `
#ifdef EROSIONMAPS
var erosionMapsSampler: sampler;
var erosionMaps: texture_2d<f32>;
var erosionAreaSampler: sampler;
var erosionArea: texture_2d<f32>;
var erosionMaterialsSampler: sampler;
var erosionMaterials: texture_2d<f32>;
// Texel (i, j) is field vertex (i, j): the four around the fragment's grid position, interpolated.
fn erosionBilinear(map: texture_2d<f32>, grid: vec2f) -> vec4f {
    let size = uniforms.erosionGridSize;
    let g = clamp(grid, vec2f(0.0), size - 1.0);
    let i0 = floor(g);
    let f = g - i0;
    let a = vec2i(i0);
    let b = vec2i(min(i0 + 1.0, size - 1.0));
    let v00 = textureLoad(map, vec2i(a.x, a.y), 0);
    let v10 = textureLoad(map, vec2i(b.x, a.y), 0);
    let v01 = textureLoad(map, vec2i(a.x, b.y), 0);
    let v11 = textureLoad(map, vec2i(b.x, b.y), 0);
    return mix(mix(v00, v10, f.x), mix(v01, v11, f.x), f.y);
}
fn erosionNearest(map: texture_2d<f32>, grid: vec2f) -> vec4f {
    return textureLoad(map, vec2i(floor(clamp(grid, vec2f(0.0), uniforms.erosionGridSize - 1.0) + 0.5)), 0);
}
fn erosionHardness(material: vec4f) -> f32 {
    return clamp(log(max(material.b, 1.0)) / log(max(uniforms.erosionMaterialScales.y, 1.0001)), 0.0, 1.0);
}
// The rock's colour by its bed: soft to hard by hardness (log scale), odd beds darker.
fn erosionRock(material: vec4f, bed: f32) -> vec3f {
    var band = 1.0;
    if (bed >= 0.0) {
        band = select(0.92, 1.06, bed - 2.0 * floor(bed / 2.0) < 0.5);
    }
    return mix(uniforms.erosionSoftRockColor, uniforms.erosionHardRockColor, erosionHardness(material)) * band;
}
fn erosionApply(base: vec3f, positionW: vec3f) -> vec3f {
    let p = vec4f(positionW, 1.0);
    let grid = vec2f(dot(uniforms.erosionGridX, p), dot(uniforms.erosionGridY, p));
    let maps = erosionBilinear(erosionMaps, grid);
    let nearest = erosionNearest(erosionMaps, grid);
    let area = erosionBilinear(erosionArea, grid).r;
    let material = erosionBilinear(erosionMaterials, grid);
    // Rounded from the interpolated bed: bed edges run as lines between texels, not texel squares.
    let bed = floor(material.g + 0.5);
    let scales = uniforms.erosionScales;
    let strengths = uniforms.erosionStrengths;
    let materialScales = uniforms.erosionMaterialScales;
    let water = clamp(log(1.0 + maps.r) / log(1.0 + max(scales.x, 1.0)), 0.0, 1.0);
    let wear = clamp(maps.g / max(scales.y, 1e-6), 0.0, 1.0);
    let sediment = clamp(maps.b / max(scales.z, 1e-6), 0.0, 1.0);
    let river = clamp(log(max(area, 1.0)) / log(max(scales.w, 2.0)), 0.0, 1.0);
    let soil = clamp(material.r / max(materialScales.x, 1e-6), 0.0, 1.0);
    let view = uniforms.erosionMapView;
    if (view > 0.5) {
        if (view < 1.5) { return mix(vec3f(0.95), vec3f(0.05, 0.25, 0.7), water); }
        if (view < 2.5) { return mix(vec3f(0.95), vec3f(0.7, 0.15, 0.05), wear); }
        if (view < 3.5) { return mix(vec3f(0.95), vec3f(0.55, 0.4, 0.05), sediment); }
        if (view < 4.5) {
            if (nearest.a < 0.0) { return vec3f(0.1); }
            return 0.5 + 0.5 * cos(6.2831 * (nearest.a / 8.0 + vec3f(0.0, 0.33, 0.67)));
        }
        if (view < 5.5) { return mix(base * 0.6 + 0.35, vec3f(0.05, 0.2, 0.65), smoothstep(0.35, 1.0, river)); }
        if (view < 6.5) { return mix(vec3f(0.95), vec3f(0.35, 0.22, 0.08), soil); }
        if (bed < 0.0) { return erosionRock(material, bed); }
        return (0.55 + 0.4 * cos(6.2831 * (bed * 0.381966 + vec3f(0.0, 0.33, 0.67)))) * mix(0.6, 1.0, erosionHardness(material));
    }
    var colour = mix(base, erosionRock(material, bed), materialScales.w * material.a * (1.0 - soil));
    colour = mix(colour, uniforms.erosionSoilColor, materialScales.z * material.a * soil);
    var wet = smoothstep(0.6, 0.95, water);
    if (strengths.w > 0.5) { wet = smoothstep(0.35, 1.0, river); }
    colour = mix(colour, uniforms.erosionRockColor, wear * strengths.y);
    // Where soil is shown, it is what was laid down: the sediment tint gives way to it.
    colour = mix(colour, uniforms.erosionSedimentColor, sediment * strengths.z * (1.0 - material.a * step(0.001, materialScales.z)));
    return mix(colour, uniforms.erosionWetColor, wet * strengths.x);
}
#endif
`;

/** The plugin's custom code for a material's fragment shader (`standard` or `pbr`). */
export function erosionFragmentCode(wgsl: boolean, kind: "standard" | "pbr"): Record<string, string> {
    const position = wgsl ? "fragmentInputs.vPositionW" : "vPositionW";
    const vec3One = wgsl ? "vec3f(1.0)" : "vec3(1.0)";
    return kind === "pbr"
        ? {
              CUSTOM_FRAGMENT_DEFINITIONS: wgsl ? WGSL_DEFINITIONS : GLSL_DEFINITIONS,
              CUSTOM_FRAGMENT_UPDATE_ALPHA: `#ifdef EROSIONMAPS\nsurfaceAlbedo = erosionApply(surfaceAlbedo, ${position});\n#endif\n`,
          }
        : {
              CUSTOM_FRAGMENT_DEFINITIONS: wgsl ? WGSL_DEFINITIONS : GLSL_DEFINITIONS,
              // The diffuse colour times the texture's is what the material shows: blend that, then let it through unscaled.
              CUSTOM_FRAGMENT_UPDATE_DIFFUSE: `#ifdef EROSIONMAPS\nbaseColor = ${wgsl ? "vec4f" : "vec4"}(erosionApply(baseColor.rgb * ` +
                  `diffuseColor, ${position}), baseColor.a);\ndiffuseColor = ${vec3One};\n#endif\n`,
          };
}
