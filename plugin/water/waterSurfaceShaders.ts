/**
 * The shader code of `TerrainWaterSurface`, GLSL (WebGL2) and WGSL (WebGPU: written here, so
 * Babylon never downloads a GLSL-to-WGSL converter).
 *
 * The vertex shader finds its vertex's texel in the `shallowWater` texture from its world position
 * (`waterGridX` and `waterGridY` are the affine maps from world position to field column and row,
 * `ErosionController.getFieldGridTransform()`, so every tile of a world finds its own window), and
 * lifts the vertex to the water surface (texel `a`, ground + water, local units). Dry vertices sink
 * `waterGrid.w` below the ground, so the triangles between a wet and a dry vertex dip under the
 * terrain: the shore is where the surface meets the ground, not a sheet hovering over the dry
 * side, and dry ground shows no water surface to fight with the terrain's depth. The texture is
 * RGBA32F, not filterable everywhere: it is read with texel loads, in the vertex shader only.
 *
 * The fragment shader tints by depth (shallow to deep colour), whitens where the water is fast
 * (foam), fades in over `fadeDepth` above `minDepth`, and adds a little shading and a highlight
 * from `lightDirection`.
 */

/** Uniforms of the material besides Babylon's `world`, `viewProjection` and `cameraPosition`, with their float counts. */
export const WATER_SURFACE_UNIFORMS = [
    // World position to field column and row (dot with (x, y, z, 1)).
    ["waterGridX", 4],
    ["waterGridY", 4],
    // Field width and depth (vertices), cell size and how far dry vertices sink (local units).
    ["waterGrid", 4],
    // minDepth, fadeDepth, deepDepth (local units), foamSpeed (local units a water step).
    ["waterShape", 4],
    ["shallowColor", 3],
    ["deepColor", 3],
    ["foamColor", 3],
    ["lightDirection", 3],
    ["opacity", 1],
] as const;

/** The name the texture is bound under. */
export const WATER_TEXTURE_NAME = "shallowWater";

const GLSL_VERTEX = `
precision highp float;
attribute vec3 position;
uniform mat4 world;
uniform mat4 viewProjection;
uniform vec4 waterGridX;
uniform vec4 waterGridY;
uniform vec4 waterGrid;
uniform vec4 waterShape;
uniform highp sampler2D shallowWater;
varying float vDepth;
varying float vSpeed;
varying vec3 vNormalW;
varying vec3 vPositionW;

vec4 waterTexel(ivec2 at) {
    return texelFetch(shallowWater, clamp(at, ivec2(0), ivec2(waterGrid.xy) - 1), 0);
}

void main(void) {
    vec4 level = world * vec4(position.x, 0.0, position.z, 1.0);
    ivec2 texel = ivec2(floor(vec2(dot(waterGridX, level), dot(waterGridY, level)) + 0.5));
    vec4 water = waterTexel(texel);
    float sink = water.r < waterShape.x ? waterGrid.w : 0.0;
    vec4 positionW = world * vec4(position.x, water.a - sink, position.z, 1.0);
    // Surface slope from the neighbours (rows run toward -z), for shading.
    float cell = waterGrid.z;
    float dx = (waterTexel(texel + ivec2(1, 0)).a - waterTexel(texel - ivec2(1, 0)).a) / (2.0 * cell);
    float dz = (waterTexel(texel - ivec2(0, 1)).a - waterTexel(texel + ivec2(0, 1)).a) / (2.0 * cell);
    vNormalW = normalize((world * vec4(-dx, 1.0, -dz, 0.0)).xyz);
    vDepth = water.r;
    vSpeed = length(water.gb);
    vPositionW = positionW.xyz;
    gl_Position = viewProjection * positionW;
}
`;

const GLSL_FRAGMENT = `
precision highp float;
uniform vec4 waterShape;
uniform vec3 shallowColor;
uniform vec3 deepColor;
uniform vec3 foamColor;
uniform vec3 lightDirection;
uniform float opacity;
uniform vec3 cameraPosition;
varying float vDepth;
varying float vSpeed;
varying vec3 vNormalW;
varying vec3 vPositionW;

void main(void) {
    float fade = smoothstep(waterShape.x, waterShape.x + waterShape.y, vDepth);
    if (fade <= 0.0) {
        discard;
    }
    // Light fades through water exponentially (Beer-Lambert): 95% of the way to the deep colour at deepDepth.
    float deep = 1.0 - exp(-3.0 * vDepth / waterShape.z);
    float foam = smoothstep(0.5 * waterShape.w, waterShape.w, vSpeed);
    vec3 normal = normalize(vNormalW);
    vec3 toLight = -normalize(lightDirection);
    vec3 toEye = normalize(cameraPosition - vPositionW);
    float shade = 0.7 + 0.3 * max(dot(normal, toLight), 0.0);
    float highlight = pow(max(dot(reflect(-toLight, normal), toEye), 0.0), 60.0) * (1.0 - foam);
    float fresnel = pow(1.0 - max(dot(normal, toEye), 0.0), 5.0);
    vec3 colour = mix(mix(shallowColor, deepColor, deep), foamColor, foam) * shade + highlight * 0.6;
    float alpha = fade * clamp(mix(opacity, 1.0, max(deep, 0.8 * foam)) + 0.3 * fresnel + highlight, 0.0, 1.0);
    gl_FragColor = vec4(colour, alpha);
}
`;

const WGSL_VERTEX = `
attribute position: vec3f;
uniform world: mat4x4f;
uniform viewProjection: mat4x4f;
uniform waterGridX: vec4f;
uniform waterGridY: vec4f;
uniform waterGrid: vec4f;
uniform waterShape: vec4f;
var shallowWaterSampler: sampler;
var shallowWater: texture_2d<f32>;
varying vDepth: f32;
varying vSpeed: f32;
varying vNormalW: vec3f;
varying vPositionW: vec3f;

fn waterTexel(at: vec2i) -> vec4f {
    return textureLoad(shallowWater, clamp(at, vec2i(0), vec2i(uniforms.waterGrid.xy) - 1), 0);
}

@vertex
fn main(input: VertexInputs) -> FragmentInputs {
    let p = vertexInputs.position;
    let level = uniforms.world * vec4f(p.x, 0.0, p.z, 1.0);
    let texel = vec2i(floor(vec2f(dot(uniforms.waterGridX, level), dot(uniforms.waterGridY, level)) + 0.5));
    let water = waterTexel(texel);
    var sink = 0.0;
    if (water.r < uniforms.waterShape.x) {
        sink = uniforms.waterGrid.w;
    }
    let positionW = uniforms.world * vec4f(p.x, water.a - sink, p.z, 1.0);
    // Surface slope from the neighbours (rows run toward -z), for shading.
    let cell = uniforms.waterGrid.z;
    let dx = (waterTexel(texel + vec2i(1, 0)).a - waterTexel(texel - vec2i(1, 0)).a) / (2.0 * cell);
    let dz = (waterTexel(texel - vec2i(0, 1)).a - waterTexel(texel + vec2i(0, 1)).a) / (2.0 * cell);
    vertexOutputs.vNormalW = normalize((uniforms.world * vec4f(-dx, 1.0, -dz, 0.0)).xyz);
    vertexOutputs.vDepth = water.r;
    vertexOutputs.vSpeed = length(water.gb);
    vertexOutputs.vPositionW = positionW.xyz;
    vertexOutputs.position = uniforms.viewProjection * positionW;
}
`;

const WGSL_FRAGMENT = `
uniform waterShape: vec4f;
uniform shallowColor: vec3f;
uniform deepColor: vec3f;
uniform foamColor: vec3f;
uniform lightDirection: vec3f;
uniform opacity: f32;
uniform cameraPosition: vec3f;
varying vDepth: f32;
varying vSpeed: f32;
varying vNormalW: vec3f;
varying vPositionW: vec3f;

@fragment
fn main(input: FragmentInputs) -> FragmentOutputs {
    let shape = uniforms.waterShape;
    let fade = smoothstep(shape.x, shape.x + shape.y, fragmentInputs.vDepth);
    if (fade <= 0.0) {
        discard;
    }
    // Light fades through water exponentially (Beer-Lambert): 95% of the way to the deep colour at deepDepth.
    let deep = 1.0 - exp(-3.0 * fragmentInputs.vDepth / shape.z);
    let foam = smoothstep(0.5 * shape.w, shape.w, fragmentInputs.vSpeed);
    let normal = normalize(fragmentInputs.vNormalW);
    let toLight = -normalize(uniforms.lightDirection);
    let toEye = normalize(uniforms.cameraPosition - fragmentInputs.vPositionW);
    let shade = 0.7 + 0.3 * max(dot(normal, toLight), 0.0);
    let highlight = pow(max(dot(reflect(-toLight, normal), toEye), 0.0), 60.0) * (1.0 - foam);
    let fresnel = pow(1.0 - max(dot(normal, toEye), 0.0), 5.0);
    let colour = mix(mix(uniforms.shallowColor, uniforms.deepColor, deep), uniforms.foamColor, foam) * shade + highlight * 0.6;
    let alpha = fade * clamp(mix(uniforms.opacity, 1.0, max(deep, 0.8 * foam)) + 0.3 * fresnel + highlight, 0.0, 1.0);
    fragmentOutputs.color = vec4f(colour, alpha);
}
`;

/** The vertex and fragment sources for `ShaderMaterial`'s `vertexSource` and `fragmentSource`. */
export function waterSurfaceSources(wgsl: boolean): { vertexSource: string; fragmentSource: string } {
    return wgsl ? { vertexSource: WGSL_VERTEX, fragmentSource: WGSL_FRAGMENT } : { vertexSource: GLSL_VERTEX, fragmentSource: GLSL_FRAGMENT };
}
