/**
 * TIFF and GeoTIFF heightmaps, read and written with geotiff.js (the well-kept TIFF library for
 * JavaScript: strips and tiles, every common compression, the GeoTIFF keys). A file's first band is
 * the heights: 16-bit unsigned samples (over a height range, as a PNG's) or float32 metres. A
 * GeoTIFF's pixel size (ModelPixelScale or ModelTransformation) is its cell size when its model is
 * projected in metres. Written: one float32 band, uncompressed, with the cell size as the pixel
 * size of a local projected model in metres. geotiff loads only when a TIFF is read or written.
 */

/** GeoTIFF codes used here (GeoTIFF 1.1 spec, 6.3). */
const MODEL_PROJECTED = 1;
const MODEL_GEOGRAPHIC = 2;
const LINEAR_METRE = 9001;
const USER_DEFINED = 32767;

/** What a TIFF holds: 16-bit samples or float32 heights, and a GeoTIFF's cell size (null: none given). */
export type TiffHeights = { readonly width: number; readonly depth: number; readonly cellSize: number | null } & (
    { readonly kind: "uint16"; readonly samples: Uint16Array } | { readonly kind: "float32"; readonly heights: Float32Array }
);

/**
 * A TIFF's first band and its cell size; throws naming what is wrong (bit depth, compression,
 * units). `cellSizeGiven`: the caller sets the cell size itself, so a GeoTIFF's pixel size (in
 * degrees or feet, say) is not read.
 */
export async function decodeTiffHeights(bytes: Uint8Array, cellSizeGiven = false): Promise<TiffHeights> {
    const { fromArrayBuffer } = await import("geotiff");
    let image: Awaited<ReturnType<Awaited<ReturnType<typeof fromArrayBuffer>>["getImage"]>>;
    try {
        image = await (await fromArrayBuffer(bytes.slice().buffer)).getImage();
    } catch (error) {
        throw new Error(`not a TIFF the bake reads (${(error as Error).message})`);
    }
    const width = image.getWidth();
    const depth = image.getHeight();
    const bits = image.getBitsPerSample(0);
    const format = image.getSampleFormat(0);
    const kind = bits === 16 && format === 1 ? "uint16" : bits === 32 && format === 3 ? "float32" : null;
    if (!kind)
        throw new Error(
            `its samples are ${bits}-bit ${format === 3 ? "floats" : format === 2 ? "signed integers" : "unsigned integers"}; ` +
                `the bake reads 16-bit unsigned or 32-bit float heights`
        );
    let band: ArrayLike<number>;
    try {
        [band] = (await image.readRasters({ samples: [0] })) as unknown as ArrayLike<number>[];
    } catch (error) {
        const compression = image.fileDirectory.getValue("Compression") as number | undefined;
        throw new Error(`its pixels do not decode (compression ${compression ?? "none"}: ${(error as Error).message})`);
    }
    const cellSize = cellSizeGiven ? null : geoCellSize(image);
    if (kind === "uint16") return { width, depth, cellSize, kind, samples: Uint16Array.from(band) };
    const heights = Float32Array.from(band);
    const bad = heights.findIndex((value) => !Number.isFinite(value));
    if (bad >= 0)
        throw new Error(
            `height ${bad} (row ${Math.floor(bad / width)}, column ${bad % width}) is ${heights[bad]}; ` +
                `every height must be a finite number of metres (a no-data value needs filling first)`
        );
    return { width, depth, cellSize, kind, heights };
}

/** The cell size a GeoTIFF gives, metres, or null for a plain TIFF; throws for degrees or non-square pixels. */
function geoCellSize(image: { getGeoKeys(): Record<string, unknown> | null; getResolution(): number[] }): number | null {
    const keys = image.getGeoKeys();
    let resolution: number[];
    try {
        resolution = image.getResolution();
    } catch {
        return null; // no pixel size: a plain TIFF
    }
    const [across, down] = resolution.map(Math.abs);
    if (keys?.GTModelTypeGeoKey === MODEL_GEOGRAPHIC)
        throw new Error(
            `it is a geographic GeoTIFF: its pixels are ${across} x ${down} degrees, not metres; reproject it to metres, or give the cell size with --cell-size`
        );
    const units = keys?.ProjLinearUnitsGeoKey;
    if (units !== undefined && units !== LINEAR_METRE)
        throw new Error(`its projection's linear unit is EPSG ${String(units)}, not metres (9001); give the cell size with --cell-size`);
    if (!(across > 0) || Math.abs(across - down) > 1e-6 * across) throw new Error(`its pixels are ${across} x ${down} m; erosion needs square cells`);
    return across;
}

/** A float32 TIFF of `heights` (`width` x `depth`, top row first) with `cellSize` as its pixel size. */
export async function encodeTiff(heights: Float32Array, width: number, depth: number, cellSize: number): Promise<Uint8Array> {
    const { writeArrayBuffer } = await import("geotiff");
    const bytes = writeArrayBuffer(heights, {
        width,
        height: depth,
        ModelPixelScale: [cellSize, cellSize, 0],
        ModelTiepoint: [0, 0, 0, 0, 0, 0],
        GTModelTypeGeoKey: MODEL_PROJECTED,
        ProjectedCSTypeGeoKey: USER_DEFINED,
        ProjLinearUnitsGeoKey: LINEAR_METRE,
    } as never);
    return new Uint8Array(bytes);
}
