/**
 * Real terrain in: updatable grounds from 16-bit heightmaps or raw height arrays, exactly (out, a
 * 16-bit PNG of heights: `heightsPng.ts`). Babylon's `CreateGroundFromHeightMap` reads 8 bits per pixel
 * through the browser's colour-managed image decoding, which turns a real DEM into terraces; these
 * helpers read the samples themselves.
 */
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { decodeGrayPng } from "./png16.js";
import { samplesToHeights, type HeightRange } from "./heightSamples.js";

/** Size of a ground in world units (metres). */
export interface GroundExtent {
    /** Extent along x, metres. */
    readonly width: number;
    /** Extent along z, metres. */
    readonly height: number;
}

/** Options of `createGroundFromHeights`. */
export interface HeightsGroundOptions {
    /** Vertices per row (x). */
    readonly columns: number;
    /** Rows (z; row 0 is the far edge, +z, as in a map's top row). */
    readonly rows: number;
    /** Extent of the ground in metres. Cells must be square for erosion: width / (columns - 1) = height / (rows - 1). */
    readonly extent: GroundExtent;
    /** For `Uint16Array` input: the heights samples 0 and 65535 stand for. */
    readonly range?: HeightRange;
}

/**
 * Creates an updatable ground whose vertex heights are exactly `heights` (metres, `Float32Array`),
 * or 16-bit samples mapped through `options.range` (`Uint16Array`).
 */
export function createGroundFromHeights(name: string, heights: Float32Array | Uint16Array, options: HeightsGroundOptions, scene: Scene): GroundMesh {
    const { columns, rows, extent } = options;
    if (!Number.isInteger(columns) || !Number.isInteger(rows) || columns < 2 || rows < 2) {
        throw new RangeError(`createGroundFromHeights: columns and rows must be integers of at least 2, got ${columns} x ${rows}.`);
    }
    if (heights.length !== columns * rows) {
        throw new RangeError(`createGroundFromHeights: ${heights.length} heights for ${columns} x ${rows} vertices.`);
    }
    if (!(extent.width > 0) || !(extent.height > 0)) {
        throw new RangeError(`createGroundFromHeights: extent must be positive, got ${extent.width} x ${extent.height} m.`);
    }
    let metres: Float32Array;
    if (heights instanceof Uint16Array) {
        if (!options.range) {
            throw new RangeError("createGroundFromHeights: 16-bit samples need options.range (the heights of samples 0 and 65535).");
        }
        metres = samplesToHeights(heights, options.range);
    } else {
        metres = heights;
    }
    const ground = CreateGround(
        name, { width: extent.width, height: extent.height, subdivisionsX: columns - 1, subdivisionsY: rows - 1, updatable: true }, scene
    );
    const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
    for (let i = 0; i < metres.length; i++) {
        positions[i * 3 + 1] = metres[i];
    }
    ground.updateVerticesData(VertexBuffer.PositionKind, positions);
    ground.createNormals(true);
    ground.refreshBoundingInfo();
    return ground;
}

/** Options of `createGroundFromPng16`. */
export interface Png16GroundOptions {
    /** Extent of the ground in metres (e.g. 60 000 x 60 000 for a 60 km DEM). */
    readonly extent: GroundExtent;
    /** Heights samples 0 and 65535 stand for, metres. */
    readonly range: HeightRange;
}

/**
 * Creates an updatable ground from a 16-bit (or 8-bit) grayscale PNG, one vertex per pixel, the
 * image's top row at the far (+z) edge.
 * @param source a URL to fetch, or the PNG's bytes
 */
export async function createGroundFromPng16(
    name: string, source: string | ArrayBuffer | Uint8Array, options: Png16GroundOptions, scene: Scene
): Promise<GroundMesh> {
    const bytes = typeof source === "string" ? new Uint8Array(await (await fetch(source)).arrayBuffer()) : source;
    const image = await decodeGrayPng(bytes);
    const samples = image.bitDepth === 16 ? image.samples : image.samples.map((value) => value * 257);
    return createGroundFromHeights(name, samples, { columns: image.width, rows: image.height, extent: options.extent, range: options.range }, scene);
}
