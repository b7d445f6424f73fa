/**
 * Array buffers handed back and forth between the CPU backend's worker and the main thread, so a
 * frame's rows, normals and maps texels go into memory already in use rather than new allocations:
 * a fresh array of a whole 513² field's normals (3 MB) took 9 ms of the worker's time to fault its
 * pages in, where computing the normals took 2; and the main thread, receiving 5 MB of new texels
 * a frame with the maps texture on, ran garbage collections of 20-30 ms in the middle of frames.
 * At most two frames' worth is kept (what is in flight and waiting anyway).
 */

/** Buffers at most kept: a frame's rows, normals and four texel arrays, two frames' worth. */
const KEPT = 12;

/** Buffers free for reuse. */
export class SpareBuffers {
    private readonly _free: ArrayBuffer[] = [];

    /** Takes `buffers` back (detached ones, handed over elsewhere meanwhile, are skipped), keeping the `KEPT` largest. */
    public give(buffers: readonly ArrayBuffer[]): void {
        for (const buffer of buffers) {
            if (buffer.byteLength > 0 && !this._free.includes(buffer)) this._free.push(buffer);
        }
        this._free.sort((a, b) => b.byteLength - a.byteLength);
        this._free.length = Math.min(this._free.length, KEPT);
    }

    /** The smallest free buffer of at least `bytes`, or a new one. */
    public take(bytes: number): ArrayBuffer {
        let best = -1;
        for (let k = 0; k < this._free.length; k++) {
            if (this._free[k].byteLength >= bytes && (best < 0 || this._free[k].byteLength < this._free[best].byteLength)) best = k;
        }
        return best < 0 ? new ArrayBuffer(bytes) : this._free.splice(best, 1)[0];
    }

    /** Every free buffer, handed over (the pool keeps none). */
    public takeAll(): ArrayBuffer[] {
        return this._free.splice(0);
    }
}
