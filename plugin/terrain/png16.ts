/**
 * 16-bit grayscale PNG in and out, exactly: real elevation data (SRTM and most DEM tools) comes as
 * 16-bit PNG, which a browser's image decoding squeezes to 8 bits and colour-manages. This reads the
 * samples themselves (PNG's zlib stream through `DecompressionStream`, available in browsers and in
 * Node 18+) and writes them back the same way.
 */

/** A decoded grayscale image: one sample per pixel, row-major, top row first. */
export interface GrayImage {
    readonly width: number;
    readonly height: number;
    /** Bits per sample in the file: 8 or 16. */
    readonly bitDepth: 8 | 16;
    /** Samples, 0..65535 for 16-bit (0..255 for 8-bit). */
    readonly samples: Uint16Array;
}

/** The eight bytes every PNG starts with. */
export const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

async function inflate(data: Uint8Array, format: "deflate"): Promise<Uint8Array> {
    const stream = new Blob([data as BlobPart]).stream().pipeThrough(new DecompressionStream(format));
    return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function deflate(data: Uint8Array): Promise<Uint8Array> {
    const stream = new Blob([data as BlobPart]).stream().pipeThrough(new CompressionStream("deflate"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
}

function paeth(a: number, b: number, c: number): number {
    const p = a + b - c;
    const pa = Math.abs(p - a);
    const pb = Math.abs(p - b);
    const pc = Math.abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Decodes a grayscale PNG (colour type 0, or 4 with the alpha ignored) of bit depth 8 or 16,
 * non-interlaced. Throws a clear error for anything else.
 */
export async function decodeGrayPng(bytes: Uint8Array | ArrayBuffer): Promise<GrayImage> {
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    for (let i = 0; i < SIGNATURE.length; i++) {
        if (data[i] !== SIGNATURE[i]) {
            throw new Error("Not a PNG file (bad signature).");
        }
    }
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let offset = 8;
    let width = 0;
    let height = 0;
    let bitDepth = 0;
    let colourType = -1;
    const idat: Uint8Array[] = [];
    while (offset + 8 <= data.length) {
        const length = view.getUint32(offset);
        const type = String.fromCharCode(data[offset + 4], data[offset + 5], data[offset + 6], data[offset + 7]);
        const body = data.subarray(offset + 8, offset + 8 + length);
        if (type === "IHDR") {
            width = view.getUint32(offset + 8);
            height = view.getUint32(offset + 12);
            bitDepth = data[offset + 16];
            colourType = data[offset + 17];
            if (data[offset + 20] !== 0) {
                throw new Error("Interlaced PNGs are not supported; save the heightmap without interlacing.");
            }
        } else if (type === "IDAT") {
            idat.push(body);
        } else if (type === "IEND") {
            break;
        }
        offset += 12 + length;
    }
    if (colourType !== 0 && colourType !== 4) {
        throw new Error(`The PNG has colour type ${colourType}; a heightmap must be grayscale (colour type 0, or 4 with alpha).`);
    }
    if (bitDepth !== 8 && bitDepth !== 16) {
        throw new Error(`The PNG has ${bitDepth}-bit samples; 8 or 16 are supported.`);
    }
    const compressed = new Uint8Array(idat.reduce((sum, chunk) => sum + chunk.length, 0));
    let at = 0;
    for (const chunk of idat) {
        compressed.set(chunk, at);
        at += chunk.length;
    }
    const raw = await inflate(compressed, "deflate");
    const channels = colourType === 4 ? 2 : 1;
    const bytesPerPixel = channels * (bitDepth / 8);
    const stride = width * bytesPerPixel;
    if (raw.length < height * (stride + 1)) {
        throw new Error(`The PNG's image data is truncated (${raw.length} bytes for ${width} x ${height}).`);
    }
    const previous = new Uint8Array(stride);
    const current = new Uint8Array(stride);
    const samples = new Uint16Array(width * height);
    for (let y = 0; y < height; y++) {
        const filter = raw[y * (stride + 1)];
        const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
        for (let i = 0; i < stride; i++) {
            const left = i >= bytesPerPixel ? current[i - bytesPerPixel] : 0;
            const up = previous[i];
            const upLeft = i >= bytesPerPixel ? previous[i - bytesPerPixel] : 0;
            let value = line[i];
            switch (filter) {
                case 0:
                    break;
                case 1:
                    value += left;
                    break;
                case 2:
                    value += up;
                    break;
                case 3:
                    value += (left + up) >> 1;
                    break;
                case 4:
                    value += paeth(left, up, upLeft);
                    break;
                default:
                    throw new Error(`The PNG uses unknown row filter ${filter} on row ${y}.`);
            }
            current[i] = value & 0xff;
        }
        for (let x = 0; x < width; x++) {
            const base = x * bytesPerPixel;
            samples[y * width + x] = bitDepth === 16 ? (current[base] << 8) | current[base + 1] : current[base];
        }
        previous.set(current);
    }
    return { width, height, bitDepth: bitDepth as 8 | 16, samples };
}

const CRC_TABLE = (() => {
    const table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++) {
            c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        }
        table[n] = c >>> 0;
    }
    return table;
})();

function crc32(bytes: Uint8Array): number {
    let crc = 0xffffffff;
    for (let i = 0; i < bytes.length; i++) {
        crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
    }
    return (crc ^ 0xffffffff) >>> 0;
}

/** A PNG chunk: length, type, `body` and its CRC. */
export function chunk(type: string, body: Uint8Array): Uint8Array {
    const out = new Uint8Array(12 + body.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, body.length);
    for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
    out.set(body, 8);
    view.setUint32(8 + body.length, crc32(out.subarray(4, 8 + body.length)));
    return out;
}

/** Encodes 16-bit grayscale samples (row-major, top row first) as a PNG. */
export async function encodeGray16Png(samples: Uint16Array, width: number, height: number): Promise<Uint8Array> {
    if (samples.length !== width * height) {
        throw new RangeError(`encodeGray16Png: ${samples.length} samples for ${width} x ${height}.`);
    }
    const stride = width * 2;
    const raw = new Uint8Array(height * (stride + 1));
    for (let y = 0; y < height; y++) {
        filterGray16Row(samples.subarray(y * width, (y + 1) * width), raw, y * (stride + 1));
    }
    return encodePng(raw, width, height, 16, 0);
}

/** One row of 16-bit samples as a filtered scanline, its filter byte first, into `raw` at `at`. */
export function filterGray16Row(row: Uint16Array, raw: Uint8Array, at: number): void {
    // Filter 1 (sub): neighbouring heights are close, so differences compress well.
    raw[at] = 1;
    let previousHigh = 0;
    let previousLow = 0;
    for (let x = 0; x < row.length; x++) {
        const value = row[x];
        const high = value >> 8;
        const low = value & 0xff;
        raw[at + 1 + x * 2] = (high - previousHigh) & 0xff;
        raw[at + 2 + x * 2] = (low - previousLow) & 0xff;
        previousHigh = high;
        previousLow = low;
    }
}

/** The IHDR chunk's body: a `width` x `height` image of `bitDepth` bits, colour type `colourType`. */
export function pngHeader(width: number, height: number, bitDepth: number, colourType: number): Uint8Array {
    const header = new Uint8Array(13);
    const headerView = new DataView(header.buffer);
    headerView.setUint32(0, width);
    headerView.setUint32(4, height);
    header[8] = bitDepth;
    header[9] = colourType;
    return header;
}

/** Encodes 8-bit RGB pixels (three bytes each, row-major, top row first) as a PNG: pictures of maps and reports. */
export async function encodeRgb8Png(pixels: Uint8Array, width: number, height: number): Promise<Uint8Array> {
    if (pixels.length !== width * height * 3) {
        throw new RangeError(`encodeRgb8Png: ${pixels.length} bytes for ${width} x ${height} RGB pixels.`);
    }
    const stride = width * 3;
    const raw = new Uint8Array(height * (stride + 1));
    for (let y = 0; y < height; y++) {
        raw.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1); // filter 0 (none)
    }
    return encodePng(raw, width, height, 8, 2);
}

/** A PNG of filtered scanlines `raw` (each row led by its filter byte). */
async function encodePng(raw: Uint8Array, width: number, height: number, bitDepth: number, colourType: number): Promise<Uint8Array> {
    const parts = [
        new Uint8Array(SIGNATURE),
        chunk("IHDR", pngHeader(width, height, bitDepth, colourType)),
        chunk("IDAT", await deflate(raw)),
        chunk("IEND", new Uint8Array(0)),
    ];
    const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
        out.set(part, at);
        at += part.length;
    }
    return out;
}
