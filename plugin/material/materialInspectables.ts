/**
 * Inspector controls for `TerrainErosionMaterialPlugin`: its options as the material's
 * `inspectableCustomProperties` (switches, sliders, colour pickers and dropdowns), which the
 * Babylon Inspector shows in the material's Custom section, as the component does for the ground.
 */
import type { Material } from "@babylonjs/core/Materials/material.js";
import { InspectableType, type IInspectable } from "@babylonjs/core/Misc/iInspectable.js";
import { EROSION_MAP_VIEWS } from "./erosionMaterialShaders.js";

/** The plugin's options the Inspector edits, by property name. */
type Editable = Record<string, unknown>;

const CONTROLS: (Omit<IInspectable, "propertyName"> & { key: string })[] = [
    { key: "wetEnabled", label: "erosion wet channels", type: InspectableType.Checkbox },
    { key: "wetColor", label: "erosion wet colour", type: InspectableType.Color3 },
    { key: "wetStrength", label: "erosion wet strength", type: InspectableType.Slider, min: 0, max: 1, step: 0.01 },
    {
        key: "wetSource",
        label: "erosion wet source",
        type: InspectableType.Options,
        options: [
            { label: "water", value: "water" as never },
            { label: "drainage", value: "drainage" as never },
        ],
    },
    { key: "rockEnabled", label: "erosion bare rock", type: InspectableType.Checkbox },
    { key: "rockColor", label: "erosion rock colour", type: InspectableType.Color3 },
    { key: "rockStrength", label: "erosion rock strength", type: InspectableType.Slider, min: 0, max: 1, step: 0.01 },
    { key: "sedimentEnabled", label: "erosion sediment", type: InspectableType.Checkbox },
    { key: "sedimentColor", label: "erosion sediment colour", type: InspectableType.Color3 },
    { key: "sedimentStrength", label: "erosion sediment strength", type: InspectableType.Slider, min: 0, max: 1, step: 0.01 },
    { key: "layersEnabled", label: "erosion rock layers", type: InspectableType.Checkbox },
    { key: "softRockColor", label: "erosion soft rock colour", type: InspectableType.Color3 },
    { key: "hardRockColor", label: "erosion hard rock colour", type: InspectableType.Color3 },
    { key: "layerStrength", label: "erosion layer strength", type: InspectableType.Slider, min: 0, max: 1, step: 0.01 },
    { key: "soilEnabled", label: "erosion soil", type: InspectableType.Checkbox },
    { key: "soilColor", label: "erosion soil colour", type: InspectableType.Color3 },
    { key: "soilStrength", label: "erosion soil strength", type: InspectableType.Slider, min: 0, max: 1, step: 0.01 },
    {
        key: "mapView",
        label: "erosion map view",
        type: InspectableType.Options,
        options: EROSION_MAP_VIEWS.map((view) => ({ label: view, value: view as never })),
    },
];

/** Adds the controls (bound to `plugin`'s properties) to `material`; returns a function that removes them. */
export function installMaterialInspectables(material: Material, plugin: object): () => void {
    const target = material as unknown as Editable;
    const names: string[] = [];
    const controls: IInspectable[] = CONTROLS.map(({ key, ...control }) => {
        const propertyName = `erosionMaterial_${key}`;
        names.push(propertyName);
        Object.defineProperty(target, propertyName, {
            configurable: true,
            enumerable: false,
            get: () => (plugin as Editable)[key],
            set: (value: unknown) => ((plugin as Editable)[key] = value),
        });
        return { ...control, propertyName };
    });
    material.inspectableCustomProperties = [...(material.inspectableCustomProperties ?? []), ...controls];
    return () => {
        material.inspectableCustomProperties = (material.inspectableCustomProperties ?? []).filter((control) => !controls.includes(control));
        for (const name of names) delete target[name];
    };
}
