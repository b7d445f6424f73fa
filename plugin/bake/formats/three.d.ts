/** The parts of three.js the bake's EXR writer uses (three ships no types; @types/three is far larger than this). */
declare module "three" {
    export const RGBAFormat: number;
    export const FloatType: number;
    export class DataTexture {
        constructor(data: Float32Array, width: number, height: number, format: number, type: number);
    }
}

declare module "three/examples/jsm/exporters/EXRExporter.js" {
    export const ZIP_COMPRESSION: number;
    export class EXRExporter {
        parse(texture: import("three").DataTexture, options: { type: number; compression: number }): Promise<Uint8Array>;
    }
}
