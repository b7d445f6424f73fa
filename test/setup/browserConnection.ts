/**
 * After each test file: disconnects from the worker's shared browser if the file connected
 * (test/helpers/browser.ts keeps the connection on the file's global), so no open socket keeps the
 * jest worker alive. The browser itself lives on for the next file.
 */
afterAll(async () => {
    const connection = (globalThis as { __testBrowserConnection?: Promise<{ close(): Promise<void> }> }).__testBrowserConnection;
    if (connection) {
        (globalThis as { __testBrowserConnection?: unknown }).__testBrowserConnection = undefined;
        await (await connection).close();
    }
});
