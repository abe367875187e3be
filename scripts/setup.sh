#!/usr/bin/env bash
# Sets up everything gpuplan needs on Debian 12 (bookworm), from nothing:
#   1. Debian packages (toolchains, libraries, browser, X server for GUI tests);
#   2. a bookworm deb-src entry, then the Dear ImGui and SDL2 *source* packages,
#      pinned by version and SHA-256, unpacked into third_party/ (git-ignored);
#   3. npm packages from the committed package-lock.json (node_modules/, git-ignored).
# Idempotent: a second run checks, changes nothing and prints one line.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

log() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    die "need root (or sudo) to run: $*"; fi
}

# --- 1. Debian packages ------------------------------------------------------
packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates xz-utils
  emscripten                      # em++ 3.1.6 for the page
  terser                          # mangles the page's index.js (Closure is not packaged)
  libsdl2-dev libgl-dev libgl1-mesa-dri   # native GUI host (OpenGL via Mesa)
  nlohmann-json3-dev catch2 libcli11-dev libfmt-dev
  chromium                        # headless browser for end-to-end tests
  xvfb xauth x11-utils imagemagick          # native window under a virtual X server + screenshot
  fonts-ipaexfont-gothic fonttools  # the Japanese font, subset at build time (pyftsubset)
  libopenblas-dev libeigen3-dev   # references for the GEMM benchmark only (scripts/bench.sh), never linked by gpuplan
  clang-14 libclang-rt-14-dev     # the fuzz preset: libFuzzer, ASan and UBSan runtimes
  ccache                          # scripts/test.sh: five builds share the objects they have in common
  hugo jekyll mkdocs              # tests/e2e/sites.test.mjs: the site bundle in a post each of them builds
)
# Node.js/npm: keep an existing installation (e.g. a newer one), otherwise Debian's.
command -v node >/dev/null || packages+=(nodejs)
command -v npm  >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
apt_updated=0
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  apt_updated=1
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- 2. pinned source packages ------------------------------------------------
# name|version|orig tarball|sha256|unpacked dir
sources=(
  "imgui|1.86+ds-1|imgui_1.86+ds.orig.tar.xz|0dace0e8e57d298eb6e93af12dc19420cb96330832f6495c733b90aeeef11f64|third_party/imgui"
  "libsdl2|2.26.5+dfsg-1|libsdl2_2.26.5+dfsg.orig.tar.gz|b3f2c822151804125d08db94c65852f711c2e5df2145a59da120748dc32eb9c3|third_party/SDL2"
)

have_deb_src() {
  # (grep exits 2 when /etc/apt/sources.list does not exist; with pipefail that must not count.)
  { grep -rhsE '^\s*(Types:.*deb-src|deb-src\s)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null || true; } |
    grep -q .
}

need_fetch=0
for s in "${sources[@]}"; do
  IFS='|' read -r _ _ _ sha dir <<<"$s"
  [ -f "$dir/.gpuplan-sha256" ] && [ "$(cat "$dir/.gpuplan-sha256")" = "$sha" ] || need_fetch=1
done

if [ $need_fetch -eq 1 ]; then
  if ! have_deb_src; then
    log "adding a deb-src entry for bookworm main"
    as_root tee /etc/apt/sources.list.d/gpuplan-deb-src.sources >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt_updated=0
  fi
  [ $apt_updated -eq 1 ] || as_root apt-get update -qq
  mkdir -p third_party/downloads
  for s in "${sources[@]}"; do
    IFS='|' read -r name version tarball sha dir <<<"$s"
    [ -f "$dir/.gpuplan-sha256" ] && [ "$(cat "$dir/.gpuplan-sha256")" = "$sha" ] && continue
    if [ ! -f "third_party/downloads/$tarball" ]; then
      log "fetching source package $name=$version"
      (cd third_party/downloads && apt-get source --download-only -qq "$name=$version" >/dev/null 2>&1) \
        || die "apt-get source $name=$version failed (is the deb-src entry reachable?)"
    fi
    got=$(sha256sum "third_party/downloads/$tarball" | cut -d' ' -f1)
    [ "$got" = "$sha" ] || die "$tarball: SHA-256 $got, expected $sha (mirror changed?)"
    rm -rf "$dir" && mkdir -p "$dir"
    tar -xf "third_party/downloads/$tarball" -C "$dir" --strip-components=1
    echo "$sha" >"$dir/.gpuplan-sha256"
    log "unpacked $tarball into $dir"
  done
fi

# --- 3. npm packages ----------------------------------------------------------
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f node_modules/.gpuplan-lock ] || [ "$(cat node_modules/.gpuplan-lock)" != "$lock_sum" ]; then
  log "installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  echo "$lock_sum" >node_modules/.gpuplan-lock
fi

log "ok (Debian packages, ImGui 1.86 and SDL2 2.26.5 sources, npm packages)"
