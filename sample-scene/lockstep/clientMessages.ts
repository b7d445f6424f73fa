/**
 * The server's reading of a player's message: anything a modified client may send (not JSON, an
 * unknown type, a request that is not one, a region list past the field, a stamp that is not one)
 * is refused with a reason, before it costs the host anything more than the parse.
 */
import { parsePlayerInput, type PlayerInput } from "../../plugin/lockstep.js";
import { type InputStamp } from "../../plugin/index.js";

/** A player's message, checked. */
export type CheckedClientMessage = { readonly type: "input"; readonly input: PlayerInput } | { readonly type: "regions"; readonly stamp: InputStamp; readonly regions: readonly number[] };

/**
 * Reads one message of a player on a field of `regionCount` checksum regions; throws a
 * `RangeError` saying what is wrong.
 */
export function readClientMessage(data: string, regionCount: number): CheckedClientMessage {
    let message: unknown;
    try {
        message = JSON.parse(data);
    } catch {
        throw new RangeError("the message is not JSON");
    }
    const { type } = (message ?? {}) as { type?: unknown };
    if (typeof message !== "object" || message === null || Array.isArray(message)) throw new RangeError("the message is not an object");
    const fields = message as Record<string, unknown>;
    if (type === "input") {
        return { type, input: parsePlayerInput(fields.input, "the input") };
    }
    if (type === "regions") {
        const stamp = fields.stamp as { cycle?: unknown; batch?: unknown } | null;
        if (typeof stamp !== "object" || stamp === null || !Number.isInteger(stamp.cycle) || !Number.isInteger(stamp.batch) || (stamp.cycle as number) < 0 || (stamp.batch as number) < 0) {
            throw new RangeError("the regions request's stamp is not { cycle, batch }, whole numbers at least 0");
        }
        if (!Array.isArray(fields.regions) || fields.regions.length < 1 || fields.regions.length > regionCount) {
            throw new RangeError(`the regions request names ${Array.isArray(fields.regions) ? fields.regions.length : "no"} regions: it must name 1 to ${regionCount}`);
        }
        const regions = fields.regions as unknown[];
        const bad = regions.find((region) => !Number.isInteger(region) || (region as number) < 0 || (region as number) >= regionCount);
        if (bad !== undefined) throw new RangeError(`the regions request names region ${JSON.stringify(bad)}: regions are whole numbers in [0, ${regionCount - 1}]`);
        if (new Set(regions).size !== regions.length) throw new RangeError("the regions request names a region twice");
        return { type, stamp: { cycle: stamp.cycle as number, batch: stamp.batch as number }, regions: regions as number[] };
    }
    throw new RangeError(`the message's type is ${JSON.stringify(type)}: a player sends "input" or "regions"`);
}
