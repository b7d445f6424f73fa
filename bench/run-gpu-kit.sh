#!/bin/sh
# Runs the WebGPU benchmark figures through Dawn for Node on this machine's Vulkan GPU, using only
# bench/gpu-kit/ (made by `npm run bench:prepare-gpu-kit` on a machine with Node): no Node.js
# install, no network, no installs. Needs a Linux x86-64 machine with glibc >= 2.34, gzip and the
# GPU's Vulkan driver (its ICD file under /usr/share/vulkan/icd.d or /etc/vulkan/icd.d). Where no
# Vulkan driver gives an adapter and Chromium's SwiftShader is installed, it runs on SwiftShader
# (VK_ICD_FILENAMES is set only then) - that is how it is rehearsed on a machine without a GPU.
#
#   sh bench/run-gpu-kit.sh [--quick] [--json=results.json] [--sizes=512,1024]
#
# Prints progress, then the table last. Writes bench/gpu-kit/results.json unless --json is given.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
kit="$here/gpu-kit"
for file in node.gz dawn.node.gz libvulkan.so.1.gz bench-dawn.mjs.gz MANIFEST.txt; do
    if [ ! -f "$kit/$file" ]; then
        echo "bench/gpu-kit/$file is missing: prepare the kit with 'npm run bench:prepare-gpu-kit' on a machine with Node and copy bench/gpu-kit here." >&2
        exit 2
    fi
done
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "The GPU kit carries Linux x86-64 binaries; this machine is $(uname -s) $(uname -m)." >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/erosion-gpu-kit.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
for packed in "$kit"/*.gz; do
    name=$(basename "$packed" .gz)
    gzip -dc "$packed" > "$work/$name"
done
chmod +x "$work/node"

# The files must be what the manifest says (a truncated copy fails here, not halfway through).
if command -v sha256sum > /dev/null 2>&1; then
    grep -v '^#' "$kit/MANIFEST.txt" | while read -r sum _bytes name; do
        echo "$sum  $work/$name"
    done | sha256sum -c --quiet - || { echo "bench/gpu-kit does not match its MANIFEST.txt; prepare it again." >&2; exit 2; }
fi

# The shipped Vulkan loader first; Dawn opens libvulkan.so.1 at run time.
LD_LIBRARY_PATH="$work${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
if command -v ldd > /dev/null 2>&1; then
    missing=$(ldd "$work/node" "$work/dawn.node" "$work/libvulkan.so.1" 2>&1 | grep -E 'not found|version .* not found' || true)
    if [ -n "$missing" ]; then
        echo "This machine lacks libraries the kit's binaries need:" >&2
        echo "$missing" >&2
        exit 2
    fi
fi

json="--json=$kit/results.json"
for argument in "$@"; do
    case "$argument" in --json=*) json="" ;; esac
done

status=0
"$work/node" "$work/bench-dawn.mjs" --dawn="$work/dawn.node" --table $json "$@" || status=$?
exit $status
