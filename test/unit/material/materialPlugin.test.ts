/**
 * TerrainErosionMaterialPlugin under a NullEngine: what it accepts, its options as Inspector
 * controls on the material, and its scales from the maps (its pixels are tested in the browser).
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import { PBRMaterial } from "@babylonjs/core/Materials/PBR/pbrMaterial.js";
import { ShaderMaterial } from "@babylonjs/core/Materials/shaderMaterial.js";
import { InspectableType } from "@babylonjs/core/Misc/iInspectable.js";
import { createGroundFromHeights, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { TerrainErosion } from "../../../plugin/index.js";
import { fitMapScales, TerrainErosionMaterialPlugin } from "../../../plugin/material/index.js";
import { createNullScene } from "../../helpers/nullScene.js";

describe("TerrainErosionMaterialPlugin", () => {
    it("takes a StandardMaterial or a PBRMaterial, puts its options in the Inspector, and fits its scales to the maps", async () => {
        const env = createNullScene();
        const ground = createGroundFromHeights("ground", generateNoiseTerrain({ width: 33, depth: 33, relief: 8, seed: 2 }), { columns: 33, rows: 33, extent: { width: 32, height: 32 } }, env.scene);
        const erosion = new TerrainErosion({ patchSize: 16, autoStart: false });
        ground.addBehavior(erosion);
        await erosion.runCycles(2);
        expect(() => new TerrainErosionMaterialPlugin(new ShaderMaterial("shader", env.scene, "default", {}), erosion)).toThrow(/StandardMaterial or a PBRMaterial, not a ShaderMaterial/);
        const pbr = new TerrainErosionMaterialPlugin(new PBRMaterial("pbr", env.scene), erosion);
        await pbr.whenReady;
        const material = new StandardMaterial("standard", env.scene);
        const plugin = new TerrainErosionMaterialPlugin(material, erosion);
        await plugin.whenReady;
        const controls = material.inspectableCustomProperties ?? [];
        expect(controls.map((control) => control.label)).toContain("erosion wet colour");
        expect(controls.find((control) => control.label === "erosion wet colour")!.type).toBe(InspectableType.Color3);
        // The Inspector writes through the material's property: it reaches the plugin.
        (material as unknown as Record<string, unknown>)["erosionMaterial_wetStrength"] = 0.3;
        (material as unknown as Record<string, unknown>)["erosionMaterial_mapView"] = "drainage";
        expect([plugin.wetStrength, plugin.mapView]).toEqual([0.3, "drainage"]);
        await plugin.fitScales();
        expect(plugin.waterScale).toBe(fitMapScales(await erosion.maps.readMaps(), 1).waterScale);
        expect(plugin.waterScale).toBeGreaterThan(1);
        plugin.dispose();
        expect((material.inspectableCustomProperties ?? []).length).toBe(0);
        env.dispose();
    });
});
