/**
 * `TerrainWaterSurface`: draws the erosion's shallow water (rivers, lakes, the sheet of a storm) as
 * a transparent surface over the eroding grounds.
 *
 * ```ts
 * import { TerrainWaterSurface } from "babylon-terrain-erosion/water";
 * erosion.setOptions({ water: { enabled: true, rain: 0.001 } });
 * const water = new TerrainWaterSurface(erosion, { deepColor: new Color3(0.02, 0.08, 0.2) });
 * ```
 *
 * One mesh per ground, with the ground's grid (subdivisions, extent) and parented to it, so it
 * follows the ground's transform and goes with it when the ground is disposed. Its vertex shader
 * lifts each vertex to the water surface read from `maps.getMapTexture("shallowWater")`: written on the
 * GPU after every frame by the WebGPU backend, uploaded from the changed rows by the CPU backend
 * (WebGL2), so the surface costs no readback. GLSL and WGSL shaders: nothing is downloaded on
 * WebGPU. Its own entry point (`babylon-terrain-erosion/water`): a game that imports only
 * `TerrainErosion` does not bundle it.
 */
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import { ShaderMaterial } from "@babylonjs/core/Materials/shaderMaterial.js";
import { ShaderLanguage } from "@babylonjs/core/Materials/shaderLanguage.js";
import { Constants } from "@babylonjs/core/Engines/constants.js";
import { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { CreateGroundVertexData } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { Nullable } from "@babylonjs/core/types.js";
import type { ErosionController } from "../component/erosionController.js";
import type { ErosionErrorEvent } from "../component/erosionEvents.js";
import { resolveWaterSurfaceOptions, type TerrainWaterSurfaceOptions } from "./waterSurfaceOptions.js";
import { WATER_SURFACE_UNIFORMS, WATER_TEXTURE_NAME, waterSurfaceSources } from "./waterSurfaceShaders.js";

/** How far below the ground dry vertices sink, in cells (see waterSurfaceShaders.ts: the shore). */
const DRY_SINK_CELLS = 0.5;

/** Writes a vec4 uniform's value in place. */
function setFour(target: { x: number; y: number; z: number; w: number }, x: number, y: number, z: number, w: number): void {
    target.x = x;
    target.y = y;
    target.z = z;
    target.w = w;
}

/** A transparent water surface over the grounds of a `TerrainErosion` or `TerrainErosionWorld`. */
export class TerrainWaterSurface {
    /**
     * Resolves once the water texture is bound and the surface shows (or the erosion failed to
     * start: then it stays hidden). After a detach and a new attach to the same ground, the
     * promise of the new attach's texture.
     */
    public get whenReady(): Promise<void> {
        return this._whenReady;
    }

    private readonly _erosion: ErosionController;
    private readonly _scene: Scene;
    private readonly _material: ShaderMaterial;
    private readonly _meshes: Mesh[];
    private _options: Readonly<TerrainWaterSurfaceOptions>;
    private _texture: RawTexture | null = null;
    private _isEnabled = true;
    private _disposed = false;
    private _beforeRender: Nullable<Observer<Scene>> = null;
    private _errors: Nullable<Observer<ErosionErrorEvent>> = null;
    private _lifecycle: Observer<ErosionController>[] = [];
    private _whenReady: Promise<void>;
    /** Counts binds and drops, so a bind that a detach (or a newer bind) overtook keeps nothing. */
    private _bindGeneration = 0;
    /** The vec4 uniforms, set every frame from these objects (no allocation per frame). */
    private readonly _uniforms = {
        gridX: { x: 0, y: 0, z: 0, w: 0 },
        gridY: { x: 0, y: 0, z: 0, w: 0 },
        gridSize: { x: 0, y: 0, z: 0, w: 0 },
        shape: { x: 0, y: 0, z: 0, w: 0 },
    };

    /**
     * Builds the surface's meshes and material at once; the water shows once the erosion's backend
     * is ready (`whenReady`).
     * @param erosion a `TerrainErosion` attached to its ground, or a `TerrainErosionWorld` (not
     * disposed); the surface draws its field's water (`water.enabled` runs the water)
     * @param options colours, depths and speeds (`TerrainWaterSurfaceOptions`), merged over
     * `WATER_SURFACE_DEFAULTS`; a bad value throws a RangeError naming the option
     */
    constructor(erosion: ErosionController, options: Partial<TerrainWaterSurfaceOptions> = {}) {
        if (
            !erosion ||
            typeof (erosion as Partial<ErosionController>).maps?.getMapTexture !== "function" ||
            typeof (erosion as Partial<ErosionController>).getGrounds !== "function"
        ) {
            throw new TypeError(
                `TerrainWaterSurface: erosion is ${erosion === null ? "null" : typeof erosion}: it must be a TerrainErosion or a TerrainErosionWorld.`
            );
        }
        const grounds = erosion.getGrounds();
        if (grounds.length === 0) {
            throw new Error(
                `TerrainWaterSurface: erosion (a ${erosion.getClassName()}) has no ground: it is not ` +
                    `attached yet, detached or disposed. Attach it first (ground.addBehavior(erosion, true)).`
            );
        }
        this._options = resolveWaterSurfaceOptions(options);
        this._erosion = erosion;
        this._scene = grounds[0].getScene();
        this._material = this._createMaterial();
        this._meshes = grounds.map((ground) => this._createMesh(ground));
        this._beforeRender = this._scene.onBeforeRenderObservable.add(() => this._update());
        // A lost WebGPU device takes the texture with it; the backend that resumes makes a new one.
        this._errors = erosion.onErrorObservable.add((event) => {
            if (event.kind === "deviceLost") {
                this._texture = null;
            } else if (event.kind === "recovered") {
                void this._bindTexture();
            }
        });
        // Detached, the erosion's texture is gone: the surface hides, and shows again when the
        // erosion is attached to the same grounds (its meshes are children of those).
        this._lifecycle = [
            erosion.onDetachedObservable.add(() => this._dropTexture()),
            erosion.onAttachedObservable.add(() => {
                if (this._sameGrounds()) this._whenReady = this._bindTexture();
            }),
        ];
        this._update();
        this._whenReady = this._bindTexture();
    }

    /** Babylon class name. */
    public getClassName(): string {
        return "TerrainWaterSurface";
    }

    /** The surface's meshes, one per ground, in `erosion.getGrounds()` order (children of their grounds). */
    public get meshes(): readonly Mesh[] {
        return this._meshes;
    }

    /** The surface's material (a `ShaderMaterial` shared by its meshes). */
    public get material(): ShaderMaterial {
        return this._material;
    }

    /** The options in force. */
    public get options(): Readonly<TerrainWaterSurfaceOptions> {
        return this._options;
    }

    /** Changes options (merged over the current ones, validated: a bad value throws a RangeError naming it and changes nothing). */
    public setOptions(options: Partial<TerrainWaterSurfaceOptions>): void {
        this._options = resolveWaterSurfaceOptions(options, this._options);
        this._update();
    }

    /** Whether the surface shows (its meshes are enabled once the texture is bound, while the erosion is live). Default true. */
    public get isEnabled(): boolean {
        return this._isEnabled;
    }

    public set isEnabled(enabled: boolean) {
        this._isEnabled = enabled === true;
        this._update();
    }

    /** Disposes the meshes and the material (the texture is the erosion's and stays). Safe to call twice. */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        this._scene.onBeforeRenderObservable.remove(this._beforeRender);
        this._beforeRender = null;
        this._erosion.onErrorObservable.remove(this._errors);
        this._errors = null;
        this._erosion.onDetachedObservable.remove(this._lifecycle[0]);
        this._erosion.onAttachedObservable.remove(this._lifecycle[1]);
        this._lifecycle = [];
        for (const mesh of this._meshes) {
            mesh.dispose(false, false);
        }
        this._meshes.length = 0;
        this._material.dispose(true, false);
        this._texture = null;
    }

    private _createMaterial(): ShaderMaterial {
        const wgsl = this._scene.getEngine().isWebGPU;
        const material = new ShaderMaterial("TerrainWaterSurface", this._scene, waterSurfaceSources(wgsl), {
            attributes: ["position"],
            uniforms: ["world", "viewProjection", "cameraPosition", ...WATER_SURFACE_UNIFORMS.map(([name]) => name)],
            samplers: [WATER_TEXTURE_NAME],
            needAlphaBlending: true,
            shaderLanguage: wgsl ? ShaderLanguage.WGSL : ShaderLanguage.GLSL,
        });
        material.alphaMode = Constants.ALPHA_COMBINE;
        return material;
    }

    private _createMesh(ground: GroundMesh): Mesh {
        const mesh = new Mesh(`${ground.name} water`, this._scene);
        // The ground's grid without normals or uvs: the shader reads everything else from the texture.
        const grid = CreateGroundVertexData({
            width: ground._width,
            height: ground._height,
            subdivisionsX: ground.subdivisionsX,
            subdivisionsY: ground.subdivisionsY,
        });
        grid.normals = null;
        grid.uvs = null;
        grid.applyToMesh(mesh, false);
        mesh.parent = ground;
        mesh.material = this._material;
        mesh.isPickable = false;
        // The vertices move in the shader (up to the water), so the flat mesh's bounds would cull it wrongly.
        mesh.alwaysSelectAsActiveMesh = true;
        mesh.doNotSyncBoundingInfo = true;
        mesh.setEnabled(false);
        return mesh;
    }

    /** Sets the uniforms (the grounds may have moved) and shows or hides the meshes. */
    private _update(): void {
        if (this._disposed) {
            return;
        }
        // A detached or disposed erosion has released its texture: hide rather than draw a freed texture.
        const live = this._texture !== null && this._erosion.getGrounds().length > 0;
        for (const mesh of this._meshes) {
            mesh.setEnabled(live && this._isEnabled);
        }
        if (!live || !this._isEnabled) {
            return;
        }
        const grid = this._erosion.maps.getFieldGridTransform();
        const cell = this._erosion.maps.fieldCellSize;
        const { minDepth, fadeDepth, deepDepth, foamSpeed, shallowColor, deepColor, foamColor, lightDirection, opacity } = this._options;
        const { gridX, gridY, gridSize, shape } = this._uniforms;
        setFour(gridX, grid.column[0], grid.column[1], grid.column[2], grid.column[3]);
        setFour(gridY, grid.row[0], grid.row[1], grid.row[2], grid.row[3]);
        setFour(gridSize, grid.width, grid.depth, cell, DRY_SINK_CELLS * cell);
        setFour(shape, minDepth * cell, fadeDepth * cell, deepDepth * cell, foamSpeed * cell);
        const material = this._material;
        material.setVector4("waterGridX", gridX).setVector4("waterGridY", gridY).setVector4("waterGrid", gridSize).setVector4("waterShape", shape);
        material.setColor3("shallowColor", shallowColor).setColor3("deepColor", deepColor).setColor3("foamColor", foamColor);
        material.setVector3("lightDirection", lightDirection).setFloat("opacity", opacity);
    }

    /** True when the erosion's grounds are those the meshes were made for (in order). */
    private _sameGrounds(): boolean {
        const grounds = this._erosion.getGrounds();
        return grounds.length === this._meshes.length && grounds.every((ground, k) => this._meshes[k].parent === ground);
    }

    /** Forgets the erosion's texture (a detach freed it) and hides the surface. */
    private _dropTexture(): void {
        this._bindGeneration++;
        this._texture = null;
        this._update();
    }

    private async _bindTexture(): Promise<void> {
        const generation = ++this._bindGeneration;
        try {
            await this._erosion.whenReady();
            const texture = await this._erosion.maps.getMapTexture("shallowWater");
            if (this._disposed || generation !== this._bindGeneration || !this._erosion.isAttached) {
                return;
            }
            this._texture = texture;
            this._material.setTexture(WATER_TEXTURE_NAME, texture);
            this._update();
        } catch {
            // The erosion could not start: it reports that itself (onErrorObservable); the surface stays hidden.
        }
    }
}
