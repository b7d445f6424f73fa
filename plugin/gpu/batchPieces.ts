/**
 * How a whole-field batch (the rivers') is cut into pieces the frame loop runs over several frames
 * on the GPU: its passes (`riverPasses`) in order, cheap ones run together and costly ones cut into
 * bands of rows, each piece about `PIECE_WORK`. A pass's invocations read nothing another writes
 * (`GridPass`), so any cut gives the whole batch's integers; how it is cut only decides how even
 * the frames are.
 */
import { recordGridPass, recordTileSeam, riverPasses, type GridPass } from "./batchDispatch.js";
import type { PlannedBatch } from "../core/schedule.js";
import type { GpuRecorder } from "./gpuRecorder.js";
import { GRID_WORKGROUP_SIZE, type KernelName } from "./shaderLibrary.js";

/** A band of rows of one pass (`pass` null: a tileable terrain's seam). */
export interface PassBand {
    readonly pass: GridPass | null;
    readonly rowOffset: number;
    readonly rowCount: number;
}

/**
 * What a vertex of each pass costs, relative to a drainage-area step's (1 where not listed).
 * Measured on SwiftShader at 513² (test/soak/smoothFrames.test.ts dumps each piece's time):
 * river_erode about 8 times a step (it walks each vertex's neighbours' loads and the stream
 * power), a routing hop about 3 times; the others about a step or less.
 */
const PASS_WEIGHTS: Partial<Record<KernelName, number>> = {
    river_erode: 8,
    route_sediment: 3,
    route_sediment_odd: 3,
    route_sediment_last: 3,
    route_sediment_last_odd: 3,
};

/**
 * Weighted vertex visits of a piece: about two drainage-area steps over a 513² field, which on
 * SwiftShader costs about what a default droplet batch does (some 200 ms), so a cycle's frames
 * stay even there; a faster device runs several pieces a frame within its budget.
 */
export const PIECE_WORK = 600_000;

/** The weighted vertex visits of a band of `rows` rows of `pass`. */
function work(pass: GridPass, rows: number): number {
    return (PASS_WEIGHTS[pass.kernel] ?? 1) * pass.columns * rows;
}

/**
 * Cuts `passes` into pieces of about `pieceWork` weighted vertex visits: consecutive passes whose
 * work together fits run as one piece; a pass that does not fit alone runs in bands of rows (at
 * least one workgroup's rows each).
 */
export function cutIntoPieces(passes: readonly GridPass[], pieceWork: number): PassBand[][] {
    const pieces: PassBand[][] = [];
    let open: PassBand[] = [];
    let openWork = 0;
    const close = () => {
        if (open.length > 0) pieces.push(open);
        open = [];
        openWork = 0;
    };
    for (const pass of passes) {
        const whole = work(pass, pass.rows);
        if (whole > pieceWork) {
            close();
            const bandRows = Math.max(1, Math.floor(pieceWork / work(pass, 1)));
            const bands = Math.ceil(pass.rows / bandRows);
            // Even bands (the last is not a sliver), of whole workgroup rows: a dispatch covers
            // whole workgroups, and the kernels idle only past the pass's end, so a band that
            // ended inside a workgroup would run the first rows of the next band as well.
            const rowsPerBand = Math.ceil(Math.ceil(pass.rows / bands) / GRID_WORKGROUP_SIZE) * GRID_WORKGROUP_SIZE;
            for (let rowOffset = 0; rowOffset < pass.rows; rowOffset += rowsPerBand) {
                pieces.push([{ pass, rowOffset, rowCount: Math.min(rowsPerBand, pass.rows - rowOffset) }]);
            }
            continue;
        }
        if (openWork + whole > pieceWork) close();
        open.push({ pass, rowOffset: 0, rowCount: pass.rows });
        openWork += whole;
    }
    close();
    return pieces;
}

/** A river batch's pieces on the GPU, cut once for the batch running in pieces. */
export class RiverPieces {
    /** The work of a piece (`cutIntoPieces`); tests set less to cut small fields into bands. */
    public pieceWork = PIECE_WORK;
    private _cut: { planned: PlannedBatch; pieces: PassBand[][] } | null = null;

    /** How many pieces `planned` runs in: a river batch's pieces (its seam with the last); 1 for any other batch. */
    public count(planned: PlannedBatch): number {
        return planned.operator === "rivers" ? this._pieces(planned).length : 1;
    }

    /**
     * Records pieces `from .. to - 1` of `planned`: its passes in order, each piece a run of whole
     * passes or a band of rows of one. Each band writes the batch's params, with its first row as
     * `dispatchOffset`, into a slot of its own.
     */
    public record(recorder: GpuRecorder, planned: PlannedBatch, from: number, to: number): void {
        const pieces = this._pieces(planned);
        for (const piece of pieces.slice(from, to)) {
            for (const band of piece) {
                const target = recorder.target([{ ...planned.params, dispatchOffset: band.rowOffset }]);
                if (band.pass) {
                    recordGridPass(target, band.pass, band.rowOffset, band.rowCount);
                } else {
                    recordTileSeam(target);
                }
            }
        }
        recorder.noteRecorded();
        if (to === pieces.length) this._cut = null;
    }

    private _pieces(planned: PlannedBatch): PassBand[][] {
        if (this._cut?.planned !== planned) {
            const pieces = cutIntoPieces(riverPasses([planned.params], planned.riverSteps), this.pieceWork);
            if (planned.params.seam !== 0) {
                pieces[pieces.length - 1].push({ pass: null, rowOffset: 0, rowCount: 0 });
            }
            this._cut = { planned, pieces };
        }
        return this._cut.pieces;
    }
}
