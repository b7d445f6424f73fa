/**
 * A single-channel OpenEXR file written from the OpenEXR file layout (openexr.com, "OpenEXR File
 * Layout"): a scanline image, no compression, one FLOAT channel `Y`, one scanline a block. The bake
 * reads single-channel EXRs; no npm library writes one (three.js's exporter writes RGBA only), so
 * the tests make theirs here, independently of the reader the bake uses.
 */
export function singleChannelExr(heights: Float32Array, width: number, depth: number): Uint8Array {
    const parts: number[] = [];
    const bytes = (...values: number[]) => parts.push(...values);
    const int32 = (value: number) => bytes(value & 255, (value >> 8) & 255, (value >> 16) & 255, (value >>> 24) & 255);
    const float32 = (value: number) => bytes(...new Uint8Array(Float32Array.of(value).buffer));
    const text = (value: string) => bytes(...[...value].map((c) => c.charCodeAt(0)), 0);
    const attribute = (name: string, type: string, size: number, value: () => void) => (text(name), text(type), int32(size), value());
    const box = () => (int32(0), int32(0), int32(width - 1), int32(depth - 1));
    int32(20000630); // magic
    int32(2); // version 2, single-part scanline
    attribute("channels", "chlist", 18 + 1, () => (text("Y"), int32(2), bytes(0, 0, 0, 0), int32(1), int32(1), bytes(0)));
    attribute("compression", "compression", 1, () => bytes(0));
    attribute("dataWindow", "box2i", 16, box);
    attribute("displayWindow", "box2i", 16, box);
    attribute("lineOrder", "lineOrder", 1, () => bytes(0));
    attribute("pixelAspectRatio", "float", 4, () => float32(1));
    attribute("screenWindowCenter", "v2f", 8, () => (float32(0), float32(0)));
    attribute("screenWindowWidth", "float", 4, () => float32(1));
    bytes(0); // end of header
    const tableStart = parts.length;
    const blockSize = 8 + width * 4;
    for (let y = 0; y < depth; y++) {
        const offset = tableStart + depth * 8 + y * blockSize;
        int32(offset), int32(0); // uint64 offsets
    }
    for (let y = 0; y < depth; y++) {
        int32(y), int32(width * 4);
        for (let x = 0; x < width; x++) float32(heights[y * width + x]);
    }
    return Uint8Array.from(parts);
}
