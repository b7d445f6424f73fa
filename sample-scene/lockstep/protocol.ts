/**
 * The sample's lockstep messages (JSON over a WebSocket), shared by the server
 * (lockstepServer.ts) and the sample's client (lockstepClient.ts). Entries travel in the input log's
 * own serialised form (`serializeInputLog`), so a message carries nothing the log format does not.
 *
 * Server to client:
 * - `join`: the simulation contract's tag (`FINGERPRINT_TAG`: a player of another version refuses to
 *   join rather than part at the first comparison), the player's name, the host's snapshot (base64
 *   bytes), the log since it, the history (the run's start and the log up to the snapshot, so an
 *   undo of an input from before the join works), and the first horizon;
 * - `step` (numbered `n` from 1): entries the host stamped since the last step, the new horizon, and
 *   every few seconds the host's region checksums at that horizon (the client compares them when it
 *   stands there); a client takes the steps in their order whatever order they arrive in (`StepOrder`);
 * - `repair`: the host's state of some regions at a stamp (the client repairs them there);
 * - `refused`: a message or input of the player's the server did not take, and why (with
 *   `disconnect`, the last: the server then closes the socket, code 1008, with the reason).
 * Client to server:
 * - `input`: one of the player's requests (`serializePlayerInput`: never heights; the host shapes it);
 * - `regions`: the regions the client found parted, to be sent their state.
 */
import type { InputStamp } from "../../plugin/index.js";

/** Server to client. */
export type ServerMessage =
    | { readonly type: "join"; readonly contract: string; readonly player: string; readonly snapshot: string; readonly log: string; readonly history?: { readonly start: string; readonly log: string }; readonly horizon: InputStamp; readonly nextStep: number }
    | { readonly type: "refused"; readonly reason: string; readonly disconnect?: boolean }
    | { readonly type: "step"; readonly n: number; readonly log: string; readonly horizon: InputStamp; readonly checksums?: { readonly size: number; readonly lanes: string } }
    | { readonly type: "repair"; readonly stamp: InputStamp; readonly size: number; readonly regions: readonly number[]; readonly water: boolean; readonly materials?: boolean; readonly values: string };

/** Client to server. */
export type ClientMessage = { readonly type: "input"; readonly input: string } | { readonly type: "regions"; readonly stamp: InputStamp; readonly regions: readonly number[] };

/** Bytes as base64 (both ends: Node and the page have btoa). */
export function bytesToBase64(bytes: Uint8Array): string {
    let text = "";
    for (let start = 0; start < bytes.length; start += 0x8000) text += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
    return btoa(text);
}

/** Base64 back to bytes. */
export function base64ToBytes(text: string): Uint8Array {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
}

/** Steps in their order whatever order they arrive in: the plugin's `StepOrder`. */
export { StepOrder } from "../../plugin/lockstep.js";
