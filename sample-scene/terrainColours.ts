/**
 * A StandardMaterial plugin that colours terrain by height and slope, so channels, ridges and scree
 * read at a glance: grass on gentle low ground, bare rock on steep slopes, snow high up. GLSL for
 * WebGL2 and WGSL for WebGPU. The erosion maps (wet channels, worn rock, sediment) come on top from
 * the package's own `TerrainErosionMaterialPlugin`, as in any game's material.
 */
import { MaterialPluginBase } from "@babylonjs/core/Materials/materialPluginBase.js";
import { MaterialDefines } from "@babylonjs/core/Materials/materialDefines.js";
import type { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import type { UniformBuffer } from "@babylonjs/core/Materials/uniformBuffer.js";
import { ShaderLanguage } from "@babylonjs/core/Materials/shaderLanguage.js";

const GLSL = `
    {
        float terrainT = clamp((vPositionW.y - terrainRange.x) / max(terrainRange.y - terrainRange.x, 0.001), 0.0, 1.0);
        float terrainSteep = smoothstep(0.72, 0.9, normalW.y);
        vec3 terrainLow = mix(vec3(0.36, 0.47, 0.22), vec3(0.55, 0.52, 0.33), smoothstep(0.25, 0.6, terrainT));
        vec3 terrainRock = mix(vec3(0.42, 0.37, 0.33), vec3(0.55, 0.53, 0.52), terrainT);
        vec3 terrainColour = mix(terrainRock, terrainLow, terrainSteep);
        diffuseColor = mix(terrainColour, vec3(0.93, 0.94, 0.97), smoothstep(0.78, 0.9, terrainT) * smoothstep(0.55, 0.8, normalW.y));
    }
`;

const WGSL = `
    {
        let terrainT = clamp((fragmentInputs.vPositionW.y - uniforms.terrainRange.x) / max(uniforms.terrainRange.y - uniforms.terrainRange.x, 0.001), 0.0, 1.0);
        let terrainSteep = smoothstep(0.72, 0.9, normalW.y);
        let terrainLow = mix(vec3f(0.36, 0.47, 0.22), vec3f(0.55, 0.52, 0.33), smoothstep(0.25, 0.6, terrainT));
        let terrainRock = mix(vec3f(0.42, 0.37, 0.33), vec3f(0.55, 0.53, 0.52), terrainT);
        let terrainColour = mix(terrainRock, terrainLow, terrainSteep);
        diffuseColor = mix(terrainColour, vec3f(0.93, 0.94, 0.97), smoothstep(0.78, 0.9, terrainT) * smoothstep(0.55, 0.8, normalW.y));
    }
`;

/** Height- and slope-based terrain colouring for a StandardMaterial. */
export class TerrainColoursPlugin extends MaterialPluginBase {
    /** Heights (metres, world space) mapped to the bottom and top of the colour ramp. */
    public minHeight = 0;
    public maxHeight = 100;

    constructor(material: StandardMaterial) {
        // Priority 200: before the erosion plugin (300), which blends the maps over this colour.
        super(material, "TerrainColours", 200, { TERRAINCOLOURS: false });
        this._enable(true);
    }

    public override prepareDefines(defines: MaterialDefines): void {
        defines["TERRAINCOLOURS"] = true;
    }

    public override isCompatible(shaderLanguage: ShaderLanguage): boolean {
        return shaderLanguage === ShaderLanguage.GLSL || shaderLanguage === ShaderLanguage.WGSL;
    }

    public override getUniforms(shaderLanguage: ShaderLanguage = ShaderLanguage.GLSL) {
        return {
            ubo: [{ name: "terrainRange", size: 2, type: "vec2" }],
            fragment: shaderLanguage === ShaderLanguage.WGSL ? "uniform terrainRange: vec2f;\n" : "uniform vec2 terrainRange;\n",
        };
    }

    public override bindForSubMesh(uniformBuffer: UniformBuffer): void {
        uniformBuffer.updateFloat2("terrainRange", this.minHeight, this.maxHeight);
    }

    public override getClassName(): string {
        return "TerrainColoursPlugin";
    }

    public override getCustomCode(shaderType: string, shaderLanguage: ShaderLanguage = ShaderLanguage.GLSL) {
        return shaderType === "fragment" ? { CUSTOM_FRAGMENT_UPDATE_DIFFUSE: shaderLanguage === ShaderLanguage.WGSL ? WGSL : GLSL } : null;
    }
}
