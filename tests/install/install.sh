#!/bin/sh
# The install, as a user gets it: `cmake --install` into a scratch root (DESTDIR), then the
# installed programs run from there with nothing of the build or source folders (the catalog
# and the message tables are built in), and the man page, completions and desktop entry are
# where the shells and desktops look. With --deb: the Debian package CPack makes, its Depends
# and its file list.
#   tests/install/install.sh BUILD_DIR [--deb]
set -eu
build=$(cd "$1" && pwd)
mode=${2:-}
root=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-install.XXXXXX")
trap 'rm -rf "$root"' EXIT
fail() { echo "install test: $*" >&2; exit 1; }

if [ "$mode" = "--deb" ]; then
  command -v dpkg-deb >/dev/null || { echo "install test: no dpkg-deb here: skipped"; exit 77; }
  (cd "$root" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$root/pkg" >"$root/cpack.log" 2>&1) ||
    { cat "$root/cpack.log" >&2; fail "cpack -G DEB failed"; }
  deb=$(ls "$root"/pkg/gpuplan_*.deb) || fail "no .deb in $root/pkg"
  info=$(dpkg-deb -I "$deb")
  files=$(dpkg-deb -c "$deb")
  echo "$info" | grep -q '^ Package: gpuplan$' || fail "Package field: $info"
  echo "$info" | grep -Eq '^ Version: [0-9]+\.[0-9]+\.[0-9]+-1$' || fail "Version field: $info"
  depends=$(echo "$info" | sed -n 's/^ Depends: //p')
  for pkg in libc6 libstdc++6 libsdl2-2.0-0; do
    echo "$depends" | grep -q "$pkg" || fail "Depends lacks $pkg: $depends"
  done
  for f in ./usr/bin/gpuplan ./usr/bin/gpuplan-gui ./usr/share/man/man1/gpuplan.1 \
           ./usr/share/bash-completion/completions/gpuplan ./usr/share/zsh/vendor-completions/_gpuplan \
           ./usr/share/fish/vendor_completions.d/gpuplan.fish ./usr/share/applications/gpuplan-gui.desktop \
           ./usr/share/icons/hicolor/scalable/apps/gpuplan.svg ./usr/share/doc/gpuplan/README.md \
           ./usr/share/doc/gpuplan/CHANGELOG.md ./usr/share/doc/gpuplan/copyright; do
    echo "$files" | grep -q " $f\$" || fail "the package lacks $f"
  done
  echo "$files" | grep -q '/usr/local/\|/include/\|\.a$' && fail "the package holds build files: $files"
  echo "install test: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB, Depends: $depends"
  exit 0
fi

DESTDIR="$root" cmake --install "$build" --prefix /usr >"$root/install.log" || { cat "$root/install.log" >&2; fail "cmake --install failed"; }
bin="$root/usr/bin"
for f in "$bin/gpuplan" "$bin/gpuplan-gui" "$root/usr/share/man/man1/gpuplan.1" \
         "$root/usr/share/bash-completion/completions/gpuplan" "$root/usr/share/zsh/vendor-completions/_gpuplan" \
         "$root/usr/share/fish/vendor_completions.d/gpuplan.fish" "$root/usr/share/applications/gpuplan-gui.desktop" \
         "$root/usr/share/icons/hicolor/scalable/apps/gpuplan.svg" "$root/usr/share/doc/gpuplan/README.md" \
         "$root/usr/share/doc/gpuplan/CHANGELOG.md" "$root/usr/share/doc/gpuplan/CHANGELOG.catalog.md" \
         "$root/usr/share/doc/gpuplan/copyright"; do
  [ -s "$f" ] || fail "not installed: ${f#$root}"
done

# Run from elsewhere, with the source and build folders out of reach of relative paths.
cd "$root"
version=$("$bin/gpuplan" --version) || fail "gpuplan --version failed"
echo "$version" | grep -Eq '^gpuplan [0-9]+\.[0-9]+\.[0-9]+$' || fail "--version: $version"
echo "$version" | grep -Eq '^git commit: ' || fail "--version names no commit: $version"
echo "$version" | grep -Eq '^catalog: [0-9.]+ \([0-9-]+\), [0-9]+ accelerators' || fail "--version names no catalog: $version"
out=$("$bin/gpuplan" fit --model llama-3.1-8b --gpu rtx-4090 --format json) || fail "gpuplan fit failed"
echo "$out" | grep -q '"schema": "gpuplan.fit/1"' || fail "gpuplan fit printed: $out"
echo "$out" | grep -q '"catalog_version": "[0-9.]*"' || fail "gpuplan fit's JSON names no catalog version"
"$bin/gpuplan-gui" --version | grep -q '^gpuplan-gui ' || fail "gpuplan-gui --version"

# The man page is the CLI's: every command and a flag of the scenario table.
man=$root/usr/share/man/man1/gpuplan.1
grep -q '^\.TH GPUPLAN 1 ' "$man" || fail "the man page has no .TH line"
for word in fit speed train compare catalog completion '\\-\\-gpu' '\\-\\-version'; do
  grep -q "$word" "$man" || fail "the man page lacks $word"
done
# Every flag --help lists for each command is in the man page (both come from one definition).
for cmd in fit speed serve plan compare train cost roofline capacity probe calibrate catalog import-hf completion; do
  for flag in $("$bin/gpuplan" $cmd --help | grep -o -- '--[a-z0-9][a-z0-9-]*' | sort -u); do
    grep -q -- "$(echo "$flag" | sed 's/-/\\\\-/g')" "$man" || fail "the man page lacks $cmd's $flag"
  done
done
if command -v man >/dev/null; then
  man -l "$man" >/dev/null 2>"$root/man.err" || fail "man -l failed"
  [ ! -s "$root/man.err" ] || { cat "$root/man.err" >&2; fail "man warned"; }
fi

# The bash completion, with the installed program: commands, a scenario flag, catalog ids.
bash_out=$(PATH="$bin:$PATH" bash -c '
  . "$1"
  t() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _gpuplan; echo "${COMPREPLY[*]}"; }
  t gpuplan fi; t gpuplan fit --gp; t gpuplan speed --gpu h100-s; t gpuplan fit --model llama-3.1-7' _ \
  "$root/usr/share/bash-completion/completions/gpuplan")
echo "$bash_out" | sed -n 1p | grep -qx 'fit' || fail "bash completion of a command gave: $bash_out"
echo "$bash_out" | sed -n 2p | grep -q -- '--gpu-layers' || fail "bash completion of a flag gave: $bash_out"
echo "$bash_out" | sed -n 3p | grep -qx 'h100-sxm' || fail "bash completion of a GPU id gave: $bash_out"
echo "$bash_out" | sed -n 4p | grep -qx 'llama-3.1-70b' || fail "bash completion of a model id gave: $bash_out"
if command -v zsh >/dev/null; then zsh -n "$root/usr/share/zsh/vendor-completions/_gpuplan" || fail "zsh -n"; fi
if command -v fish >/dev/null; then
  fish -n "$root/usr/share/fish/vendor_completions.d/gpuplan.fish" || fail "fish -n"
  got=$(PATH="$bin:$PATH" fish -c "source $root/usr/share/fish/vendor_completions.d/gpuplan.fish; complete -C 'gpuplan fit --gpu h100-s'" | cut -f1)
  [ "$got" = "h100-sxm" ] || fail "fish completion gave: $got"
fi
grep -q '^Exec=gpuplan-gui$' "$root/usr/share/applications/gpuplan-gui.desktop" || fail "desktop entry"
echo "install test: installed under DESTDIR, gpuplan and gpuplan-gui run from there"
