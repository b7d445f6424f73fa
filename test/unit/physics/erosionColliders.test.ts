/**
 * ErosionColliders under Node: a NullEngine scene with Babylon's Havok plugin (the WASM from
 * `@babylonjs/havok`), the CPU backend eroding in the calling thread.
 */
import { readFileSync } from "node:fs";
import HavokPhysics from "@babylonjs/havok";
import "@babylonjs/core/Physics/joinedPhysicsEngineComponent.js";
import { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsRaycastResult } from "@babylonjs/core/Physics/physicsRaycastResult.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { createGroundFromHeights, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { TerrainErosion, type ErosionOptionsInput } from "../../../plugin/index.js";
import { chunkOrigins, ErosionColliders } from "../../../plugin/physics/index.js";
import { createNullScene } from "../../helpers/nullScene.js";

const SIDE = 49;
const STEP = 1 / 60;
let havok: unknown;

beforeAll(async () => {
    const wasm = readFileSync(require.resolve("@babylonjs/havok/lib/umd/HavokPhysics.wasm"));
    havok = await HavokPhysics({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer });
});

describe("ErosionColliders (Havok under Node)", () => {
    let env: ReturnType<typeof createNullScene>;
    let scene: Scene;
    let plugin: HavokPlugin;

    beforeEach(() => {
        env = createNullScene();
        scene = env.scene;
        plugin = new HavokPlugin(false, havok);
        scene.enablePhysics(new Vector3(0, -9.81, 0), plugin);
    });

    afterEach(() => env.dispose());

    const step = (frames: number) => {
        for (let i = 0; i < frames; i++) scene.getPhysicsEngine()!._step(STEP);
    };

    const radius = 0.5;

    /** Drops a sphere of `radius` from `from` and steps until it has stayed still for a second (at most 60 s). */
    const dropSphere = (from: Vector3) => {
        const ball = CreateSphere("ball", { diameter: 2 * radius }, scene);
        ball.position.copyFrom(from);
        const aggregate = new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 1, friction: 0.8, restitution: 0 }, scene);
        aggregate.body.setLinearDamping(0.6);
        aggregate.body.setAngularDamping(0.6);
        for (let frame = 0, still = 0; frame < 3600 && still < 60; frame++) {
            step(1);
            still = aggregate.body.getLinearVelocity().length() < 0.02 ? still + 1 : 0;
        }
        return { rest: ball.position.clone(), aggregate };
    };

    /** The collider's height under (x, z): a ray straight down. */
    const colliderHeight = (x: number, z: number): number | null => {
        const result = new PhysicsRaycastResult();
        plugin.raycast(new Vector3(x, 1000, z), new Vector3(x, -1000, z), result);
        return result.hasHit ? result.hitPoint.y : null;
    };

    /** Bilinear height of row-major heights at a world (x, z) of a centred ground with 1-unit cells. */
    const surfaceAt = (heights: ArrayLike<number>, x: number, z: number) => {
        const gx = x + (SIDE - 1) / 2;
        const gy = (SIDE - 1) / 2 - z;
        const [x0, y0] = [Math.min(SIDE - 2, Math.floor(gx)), Math.min(SIDE - 2, Math.floor(gy))];
        const [fx, fy] = [gx - x0, gy - y0];
        const h = (c: number, r: number) => heights[r * SIDE + c];
        // Babylon's ground triangles split each quad along one diagonal; at the probe points below the
        // bilinear height is within the tolerance of either triangle.
        return (h(x0, y0) * (1 - fx) + h(x0 + 1, y0) * fx) * (1 - fy) + (h(x0, y0 + 1) * (1 - fx) + h(x0 + 1, y0 + 1) * fx) * fy;
    };

    async function eroded(heights: Float32Array, options: ErosionOptionsInput): Promise<{ ground: GroundMesh; erosion: TerrainErosion }> {
        const ground = createGroundFromHeights("ground", heights, { columns: SIDE, rows: SIDE, extent: { width: SIDE - 1, height: SIDE - 1 } }, scene);
        const erosion = new TerrainErosion({ patchSize: 24, seed: 5, autoStart: false, ...options });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        return { ground, erosion };
    }

    it("matches readHeights() after flush(), rebuilding only the chunks that changed", async () => {
        // Only an erodeAt event erodes: its batch changes the rows near its disc.
        const { erosion } = await eroded(generateNoiseTerrain({ width: SIDE, depth: SIDE, relief: 10, seed: 3 }), { hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false } });
        // Rows never eroded still hold the ground's own float heights until a flush writes the state's (fixed-point) ones.
        await erosion.flush();
        const colliders = new ErosionColliders(erosion, { chunkCells: 16, refreshIntervalMs: 0 });
        expect(colliders.chunkCounts).toEqual([9]);
        erosion.edits.erodeAt(new Vector3(-14, 0, 14), 2, { droplets: 300, hydraulic: { maxSteps: 4 } });
        await erosion.runCycles(1);
        expect(colliders.pendingChunks).toBeGreaterThan(0);
        expect(colliders.pendingChunks).toBeLessThan(9);
        colliders.refresh();
        expect([colliders.pendingChunks, colliders.chunksRebuilt]).toEqual([0, expect.any(Number)]);
        const rebuilt = colliders.chunksRebuilt;
        await erosion.flush(); // already up to date: nothing changes, nothing to rebuild
        expect(colliders.pendingChunks).toBe(0);
        expect(rebuilt).toBeLessThan(9);
        const heights = await erosion.maps.readHeights();
        let worst = 0;
        for (let row = 0; row < SIDE; row += 3) {
            for (let column = 0; column < SIDE; column += 3) {
                const x = -(SIDE - 1) / 2 + column + (column === SIDE - 1 ? -1e-3 : 1e-3);
                const z = (SIDE - 1) / 2 - row + (row === SIDE - 1 ? 1e-3 : -1e-3);
                worst = Math.max(worst, Math.abs(colliderHeight(x, z)! - heights[row * SIDE + column]));
            }
        }
        expect(worst).toBeLessThan(0.02);
        colliders.dispose();
    });

    it("keeps its bodies through a detach, and follows the ground again once the erosion is attached again", async () => {
        const { ground, erosion } = await eroded(generateNoiseTerrain({ width: SIDE, depth: SIDE, relief: 10, seed: 3 }), { hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false } });
        await erosion.flush();
        const colliders = new ErosionColliders(erosion, { chunkCells: 16, refreshIntervalMs: 0 });
        const probeVertex = ((SIDE - 1) / 2 - 14) * SIDE + (SIDE - 1) / 2 - 14; // world (-14, 14)
        const before = (await erosion.maps.readHeights())[probeVertex];
        erosion.detach();
        for (let frame = 0; frame < 5; frame++) scene.render(); // no throw from the colliders' frame
        expect(colliders.bodies.length).toBe(1);
        ground.addBehavior(erosion);
        await erosion.whenReady();
        erosion.edits.erodeAt(new Vector3(-14, 0, 14), 2, { droplets: 300, hydraulic: { maxSteps: 4 } });
        await erosion.runCycles(1);
        expect(colliders.pendingChunks).toBeGreaterThan(0);
        colliders.refresh();
        const after = (await erosion.maps.readHeights())[probeVertex];
        expect(Math.abs(after - before)).toBeGreaterThan(0.02); // the event eroded there
        expect(Math.abs(colliderHeight(-14 + 1e-3, 14 - 1e-3)! - after)).toBeLessThan(0.02);
        colliders.dispose();
        erosion.dispose();
    });

    it("puts a sphere dropped on a slope to rest on the eroded floor, at the eroded height", async () => {
        // A closed basin (an inverted cone): erosion wears its slopes and fills its floor with sediment.
        const heights = new Float32Array(SIDE * SIDE);
        for (let row = 0; row < SIDE; row++) {
            for (let column = 0; column < SIDE; column++) {
                heights[row * SIDE + column] = 0.3 * Math.hypot(column - (SIDE - 1) / 2, (SIDE - 1) / 2 - row);
            }
        }
        const { erosion } = await eroded(heights, { hydraulic: { dropletsPerBatch: 400 } });
        await erosion.runCycles(8);
        await erosion.flush();
        const colliders = new ErosionColliders(erosion, { chunkCells: 16 });
        const after = await erosion.maps.readHeights();
        const { rest, aggregate } = dropSphere(new Vector3(9, surfaceAt(after, 9, 2) + 3, 2));
        const speed = aggregate.body.getLinearVelocity().length();
        expect(speed).toBeLessThan(0.05);
        expect(Math.hypot(rest.x, rest.z)).toBeLessThan(4); // rolled down to the basin's floor
        // Resting on the eroded surface (the sphere's bottom within 2 cm of a nearby eroded height),
        // where the original surface was more than 5 cm away (the floor filled with sediment).
        const erodedUnder = Math.min(...[-0.3, 0, 0.3].flatMap((dx) => [-0.3, 0, 0.3].map((dz) => Math.abs(rest.y - radius - surfaceAt(after, rest.x + dx, rest.z + dz)))));
        const originalUnder = Math.abs(rest.y - radius - surfaceAt(heights, rest.x, rest.z));
        expect(erodedUnder).toBeLessThan(0.02);
        expect(originalUnder).toBeGreaterThan(0.05);
        colliders.dispose();
    });

    it("rebuilds only the chunks a crater touches, and a sphere dropped in it rests on its floor", async () => {
        const flat = Float32Array.from({ length: SIDE * SIDE }, (_, i) => 2 + 0.02 * (i % SIDE));
        const { ground, erosion } = await eroded(flat, { hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false } });
        await erosion.flush();
        const colliders = new ErosionColliders(erosion, { chunkCells: 16, refreshIntervalMs: 0 });
        // A crater 3 units deep, 5 units wide, inside the first chunk's neighbourhood (world (-12, 12)).
        erosion.edits.crater(new Vector3(-12, 0, 12), 5, 3);
        expect(colliders.pendingChunks).toBeGreaterThan(0);
        expect(colliders.pendingChunks).toBeLessThan(9);
        colliders.refresh();
        const rebuilt = colliders.chunksRebuilt;
        for (let frame = 0; frame < 3; frame++) scene.render(); // the edit's frame lands its exact rows
        await erosion.whenIdle();
        colliders.refresh();
        expect(colliders.chunksRebuilt).toBeLessThan(9 + rebuilt);
        const heights = await erosion.maps.readHeights();
        const floor = heights[(24 - 12) * SIDE + (24 - 12)];
        expect(flat[(24 - 12) * SIDE + (24 - 12)] - floor).toBeGreaterThan(2.9);
        const { rest } = dropSphere(new Vector3(-11, floor + 6, 11.5));
        console.log(`sphere at rest ${(rest.y - radius - floor).toFixed(3)} above the crater's floor, ${Math.hypot(rest.x + 12, rest.z - 12).toFixed(2)} from its centre`);
        expect(Math.hypot(rest.x + 12, rest.z - 12)).toBeLessThan(1.5);
        expect(Math.abs(rest.y - radius - surfaceAt(heights, rest.x, rest.z))).toBeLessThan(0.05);
        expect(rest.y - radius).toBeLessThan(floor + 0.3);
        colliders.dispose();
        ground.dispose();
    });

    it("lets a sphere roll across chunk edges without snagging: as on one heightfield", async () => {
        // A plane falling along +x: with chunks of 16 cells the sphere crosses chunk edges at x = -8 and 8.
        const heights = new Float32Array(SIDE * SIDE);
        for (let i = 0; i < SIDE * SIDE; i++) heights[i] = -0.25 * ((i % SIDE) - (SIDE - 1) / 2);
        const { erosion } = await eroded(heights, {});
        expect(chunkOrigins(SIDE, SIDE, 16).map(([x0]) => x0).slice(0, 3)).toEqual([0, 16, 32]);
        const roll = (chunkCells: number) => {
            const colliders = new ErosionColliders(erosion, { chunkCells });
            const radius = 0.5;
            const ball = CreateSphere(`roller${chunkCells}`, { diameter: 2 * radius }, scene);
            ball.position.set(-14, surfaceAt(heights, -14, 0.3) + radius / Math.cos(Math.atan(0.25)) + 0.01, 0.3);
            const aggregate = new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 1, friction: 0.6, restitution: 0 }, scene);
            let frame = 0;
            let worstGap = 0;
            for (; frame < 600 && ball.position.x < 16; frame++) {
                step(1);
                if (frame > 10) {
                    // Distance from the sphere's centre to the plane, against its radius: no hop off an edge.
                    worstGap = Math.max(worstGap, Math.abs((ball.position.y - surfaceAt(heights, ball.position.x, ball.position.z)) * Math.cos(Math.atan(0.25)) - radius));
                }
            }
            const result = { frame, speed: aggregate.body.getLinearVelocity().length(), worstGap };
            aggregate.dispose();
            ball.dispose();
            colliders.dispose();
            return result;
        };
        const single = roll(48);
        const chunked = roll(16);
        expect(single.frame).toBeLessThan(600);
        expect(Math.abs(chunked.frame - single.frame)).toBeLessThanOrEqual(2);
        expect(Math.abs(chunked.speed - single.speed)).toBeLessThan(0.02 * single.speed);
        expect(chunked.worstGap).toBeLessThan(0.03);
    });

    it("refreshes at most once per interval, maxChunksPerFrame chunks a frame", async () => {
        const { erosion } = await eroded(generateNoiseTerrain({ width: SIDE, depth: SIDE, relief: 10, seed: 2 }), {});
        await erosion.flush();
        const slow = new ErosionColliders(erosion, { chunkCells: 16, refreshIntervalMs: 60000, maxChunksPerFrame: 2 });
        await erosion.runCycles(1); // changes every row
        expect(slow.pendingChunks).toBe(9);
        scene.render(); // the first refresh may start at once (none has run yet): 2 chunks this frame
        expect([slow.chunksRebuilt, slow.pendingChunks]).toEqual([2, 7]);
        for (let frame = 0; frame < 3; frame++) scene.render();
        expect([slow.chunksRebuilt, slow.pendingChunks]).toEqual([8, 1]);
        scene.render();
        expect([slow.chunksRebuilt, slow.pendingChunks]).toEqual([9, 0]);
        await erosion.runCycles(1);
        for (let frame = 0; frame < 5; frame++) scene.render();
        expect([slow.chunksRebuilt, slow.pendingChunks]).toEqual([9, 9]); // the next refresh waits for the interval
        slow.refresh();
        expect([slow.chunksRebuilt, slow.pendingChunks]).toEqual([18, 0]);
        slow.dispose();
    });

    it("refuses a scene without physics v2 and options out of range", async () => {
        const { erosion } = await eroded(generateNoiseTerrain({ width: SIDE, depth: SIDE, relief: 4, seed: 1 }), {});
        expect(() => new ErosionColliders(erosion, { chunkCells: 1 })).toThrow(/"chunkCells" is 1: it must be an integer in \[2, 512\] \(cells\)/);
        expect(() => new ErosionColliders(erosion, { refreshIntervalMs: NaN })).toThrow(/"refreshIntervalMs" is NaN/);
        scene.disablePhysicsEngine();
        expect(() => new ErosionColliders(erosion)).toThrow(/needs Babylon's physics v2/);
    });
});
