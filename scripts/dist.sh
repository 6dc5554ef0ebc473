#!/usr/bin/env bash
# A binary for those who will not compile: `ibtrader` built in release with the Swift runtime and Foundation linked
# statically (--static-swift-stdlib), its bundled data beside it, in a tarball with its SHA-256.
#
#   scripts/dist.sh            # build dist/ibtrader-VERSION-linux-ARCH.tar.gz (+ .sha256)
#   scripts/dist.sh --check    # and run it as a user without Swift would: --version, a backtest, 10 s of the bot
#
# The binary needs only the system libraries it names in its LIBRARIES file (glibc, libstdc++, libgcc, libcurl,
# libsqlite3, zlib on Debian 12 and Ubuntu 22.04 or newer); no Swift toolchain. Linux only: on macOS, `swift build
# -c release` gives a binary that needs nothing beyond the system.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
[ "${1:-}" = "--check" ] && check=1

[ "$(uname -s)" = Linux ] || { echo "dist.sh builds the Linux binary; on macOS use swift build -c release" >&2; exit 1; }
version=$(sed -n 's/.*static let number = "\(.*\)".*/\1/p' Sources/TraderKit/ProductVersion.swift)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
arch=$(uname -m)
name="ibtrader-$version-linux-$arch"

# Foundation's networking links libcurl by its development name (libcurl.so), which only the -dev package installs;
# the runtime library (libcurl.so.4) is all the link needs, so a folder with that one name stands in for the package.
links=$(mktemp -d)
trap 'rm -rf "$links"' EXIT
curl_runtime=$(PATH="$PATH:/sbin:/usr/sbin" ldconfig -p | awk '/libcurl\.so\.4 / && /'"$arch"'|x86-64|aarch64/ {print $NF; exit}')
[ -n "$curl_runtime" ] || { echo "dist.sh: libcurl.so.4 not found (apt-get install libcurl4)" >&2; exit 1; }
ln -s "$curl_runtime" "$links/libcurl.so"

start=$(date +%s)
swift build -c release --product ibtrader --static-swift-stdlib -Xlinker -L"$links" 2>&1 | grep -v "the use of \`mktemp' is dangerous" | tail -3
echo "stage: release build (static Swift runtime) took $(( $(date +%s) - start )) s"
bin=$(swift build -c release --show-bin-path)

rm -rf "dist/$name" "dist/$name.tar.gz" "dist/$name.tar.gz.sha256"
mkdir -p "dist/$name"
cp "$bin/ibtrader" "dist/$name/"
strip "dist/$name/ibtrader"
# The bundled data sets (the demo's minute bars, the S&P 500 members): found beside the executable.
cp -R "$bin/IBTrader_BundledData.resources" "dist/$name/"
[ -d "$bin/GRDB_GRDB.resources" ] && cp -R "$bin/GRDB_GRDB.resources" "dist/$name/"
{
    echo "ibtrader $version ($commit), built $(date -u +%Y-%m-%d) on $(. /etc/os-release && echo "$PRETTY_NAME") $arch"
    echo "System libraries it links (all else is inside the binary):"
    readelf -d "dist/$name/ibtrader" | awk -F'[][]' '/NEEDED/ {print "  " $2}'
    echo "glibc $(ldd --version | head -1 | awk '{print $NF}') or newer."
} >"dist/$name/LIBRARIES"
cp LICENSE "dist/$name/" 2>/dev/null || true
tar -C dist -czf "dist/$name.tar.gz" "$name"
(cd dist && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "dist/$name.tar.gz ($(du -h "dist/$name.tar.gz" | cut -f1)), $(cat "dist/$name.tar.gz.sha256" | cut -c1-16)…"
cat "dist/$name/LIBRARIES"

[ $check = 1 ] || exit 0
# As a user without Swift: unpacked elsewhere, a bare environment, no toolchain on the path or in the linker's.
try=$(mktemp -d)
trap 'rm -rf "$links" "$try"' EXIT
tar -C "$try" -xzf "dist/$name.tar.gz"
(cd dist && sha256sum --quiet -c "$name.tar.gz.sha256") || { echo "dist.sh: the checksum does not match" >&2; exit 1; }
bare=(env -i HOME="$try" PATH=/usr/bin:/bin LANG=C.UTF-8)
if ldd "$try/$name/ibtrader" | grep -q "/opt/swift\|swift"; then
    echo "dist.sh: the binary still needs a library of the toolchain:" >&2; ldd "$try/$name/ibtrader" >&2; exit 1
fi
cd "$try"
"${bare[@]}" "./$name/ibtrader" --version | grep -qx "$version" || { echo "dist.sh: --version did not print $version" >&2; exit 1; }
echo "check: --version prints $version"
"${bare[@]}" "./$name/ibtrader" backtest --quiet >"$try/backtest.log" 2>&1 \
    || { echo "dist.sh: backtest failed:" >&2; tail -20 "$try/backtest.log" >&2; exit 1; }
echo "check: backtest: $(grep -i "total return\|sharpe" "$try/backtest.log" | head -2 | tr -s ' ' | tr '\n' ' ')"
"${bare[@]}" "./$name/ibtrader" run --simulated --duration 10s --speed 60 >"$try/run.log" 2>&1 \
    || { echo "dist.sh: run --simulated failed:" >&2; tail -20 "$try/run.log" >&2; exit 1; }
ended=$(grep "^run ended" "$try/run.log" || true)
echo "check: $ended" | cut -c1-160
echo "$ended" | grep -q ", [1-9][0-9]* fills," || { echo "dist.sh: the bot did not trade in 10 s:" >&2; tail -20 "$try/run.log" >&2; exit 1; }
echo "check: the binary without a toolchain ran the demo and traded"
