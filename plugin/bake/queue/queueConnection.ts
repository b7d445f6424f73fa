/**
 * Reaching the job queue: BullMQ and ioredis (dependencies of the command's package,
 * babylon-terrain-erosion-cli, loaded only when `--queue` or `terrain-erosion worker` asks), a
 * Redis URL as connection options, a check that
 * Redis answers before any work starts, and the names every coordinator and worker agree on.
 */

/** The queue every worker takes tile jobs from (all bakes share it: a job names its bake). */
export const TILE_QUEUE = "terrain-erosion-tiles";

/** The queue of one bake's step jobs (the parents of its tile jobs); removed when the bake completes. */
export function stepQueueName(bakeId: string): string {
    return `terrain-erosion-steps-${bakeId}`;
}

/** Where a bake's keys live in Redis (its tile inputs and outputs). */
export function bakeKeyPrefix(bakeId: string): string {
    return `terrain-erosion:${bakeId}:`;
}

/** Why the queue cannot be used (no Redis there, BullMQ not installed, a bad URL). */
export class BakeQueueError extends Error {
    public override readonly name = "BakeQueueError";
}

/** The `bullmq` module. */
export type BullMq = typeof import("bullmq");
/** The `ioredis` module. */
export type IoRedis = typeof import("ioredis");

/** BullMQ and ioredis, or a clear error saying how to install them. */
export async function loadQueueLibraries(flag: string): Promise<{ bullmq: BullMq; ioredis: IoRedis }> {
    try {
        return { bullmq: await import("bullmq"), ioredis: await import("ioredis") };
    } catch (error) {
        throw new BakeQueueError(
            `${flag} needs the optional packages "bullmq" and "ioredis", which could not be ` +
                `loaded (${error instanceof Error ? error.message : String(error)}). Install ` +
                `them with \`npm install bullmq ioredis\`, or bake on this machine without ${flag}.`
        );
    }
}

/** How to reach Redis: what both BullMQ and ioredis take. */
export interface QueueConnection {
    readonly host: string;
    readonly port: number;
    readonly username?: string;
    readonly password?: string;
    readonly db: number;
    readonly tls?: Record<string, never>;
    readonly maxRetriesPerRequest: null;
}

/** Connection options for `url` (`redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS). */
export function redisOptions(url: string, flag: string): QueueConnection {
    let parsed: URL;
    try {
        parsed = new URL(url);
    } catch {
        throw new BakeQueueError(`${flag} is "${url}": give a Redis URL such as redis://127.0.0.1:6379.`);
    }
    if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
        throw new BakeQueueError(`${flag} is "${url}": the URL must start with redis:// or rediss://.`);
    const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
    if (!Number.isInteger(db) || db < 0) throw new BakeQueueError(`${flag} is "${url}": the database after the slash must be a whole number.`);
    return {
        host: parsed.hostname || "127.0.0.1",
        port: parsed.port ? Number(parsed.port) : 6379,
        username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
        password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
        db,
        tls: parsed.protocol === "rediss:" ? {} : undefined,
        // BullMQ's workers block on Redis and must retry forever rather than fail a command.
        maxRetriesPerRequest: null,
    };
}

/** Checks that Redis answers at `options` within a few seconds, before any work starts. */
export async function probeRedis(ioredis: IoRedis, options: QueueConnection, url: string, flag: string): Promise<void> {
    const probe = new ioredis.Redis({ ...options, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 5000 });
    let cause: Error | null = null; // the socket's error (ECONNREFUSED...), more telling than the failed connect's
    probe.on("error", (error: Error) => (cause ??= error));
    try {
        await probe.connect();
        await probe.ping();
    } catch (error) {
        const reason = (cause ?? error) as NodeJS.ErrnoException;
        throw new BakeQueueError(
            `${flag} ${url}: cannot reach Redis (${reason.code ?? reason.message}). Start one (\`redis-server\`) or check the host and port.`
        );
    } finally {
        probe.disconnect();
    }
}
