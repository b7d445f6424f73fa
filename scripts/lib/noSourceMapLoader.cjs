// A webpack loader that gives a module an empty source map: its code maps to no source, so the
// bundle's map neither names nor embeds it. The UMD build uses it for plugin/generated/ (the WGSL as
// strings and the minified CPU worker, which the map would otherwise carry a second time, 145 KB).
module.exports = function noSourceMap(source) {
    this.callback(null, source, { version: 3, sources: [], names: [], mappings: "" });
};
