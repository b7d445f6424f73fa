/**
 * A start's upload spread over frames (`writeInPieces`): every byte lands where `upload` would put
 * it, in order, in pieces of at most the size asked for (whole 4-byte words), with a wait between
 * pieces.
 */
import type { ComputeBuffer, ComputeDevice } from "../../../plugin/advanced.js";
import { writeInPieces, type BufferWrite } from "../../../plugin/internal.js";

function fakeDevice(log: string[], contents: Map<ComputeBuffer, Uint8Array>): ComputeDevice {
    return {
        writeBuffer(buffer: ComputeBuffer, data: ArrayBufferView, byteOffset = 0) {
            log.push(`${buffer.label} ${byteOffset}+${data.byteLength}`);
            contents.get(buffer)!.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), byteOffset);
        },
    } as unknown as ComputeDevice;
}

describe("writeInPieces", () => {
    it("writes every byte where it belongs, in order, in pieces of at most the size asked for, waiting between them", async () => {
        const heights = { label: "heights", byteLength: 4000 };
        const counters = { label: "counters", byteLength: 24 };
        const contents = new Map<ComputeBuffer, Uint8Array>([
            [heights, new Uint8Array(4000)],
            [counters, new Uint8Array(24)],
        ]);
        const heightData = new Int32Array(1000).map((_, i) => i * 7 - 300);
        const counterData = new Uint32Array([1, 2, 3, 4, 5, 6]);
        // Written through a view that does not start its buffer (as state grids may be).
        const backing = new Int32Array(1010);
        backing.set(heightData, 10);
        const writes: BufferWrite[] = [
            { buffer: heights, data: backing.subarray(10) },
            { buffer: counters, data: counterData },
        ];
        const log: string[] = [];
        let waits = 0;
        const pieces = await writeInPieces(fakeDevice(log, contents), writes, 1500, async () => {
            log.push("wait");
            waits++;
        });
        expect(new Int32Array(contents.get(heights)!.buffer)).toEqual(heightData);
        expect(new Uint32Array(contents.get(counters)!.buffer)).toEqual(counterData);
        expect(log).toEqual(["heights 0+1500", "wait", "heights 1500+1500", "wait", "heights 3000+1000", "counters 0+24"]);
        expect([pieces, waits]).toEqual([3, 2]);
    });

    it("cuts at whole words when the piece size is not a multiple of 4, and makes one piece of a small upload", async () => {
        const buffer = { label: "b", byteLength: 40 };
        const contents = new Map<ComputeBuffer, Uint8Array>([[buffer, new Uint8Array(40)]]);
        const log: string[] = [];
        expect(await writeInPieces(fakeDevice(log, contents), [{ buffer, data: new Int32Array(10).fill(9) }], 18, async () => undefined)).toBe(3);
        expect(log).toEqual(["b 0+16", "b 16+16", "b 32+8"]);
        expect(await writeInPieces(fakeDevice([], contents), [{ buffer, data: new Int32Array(10) }], 1 << 20, async () => undefined)).toBe(1);
    });
});
