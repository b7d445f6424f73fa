/** Closes the browsers `browserServers.ts` launched for the run (jest's globalTeardown). */
import { TEST_BROWSERS } from "./browserServers"; // no extension: jest loads globalTeardown with Node's require

export default async function closeTestBrowsers(): Promise<void> {
    await Promise.all((globalThis.__testBrowserServers ?? []).map((server) => server.close()));
    globalThis.__testBrowserServers = undefined;
    delete process.env[TEST_BROWSERS];
}
