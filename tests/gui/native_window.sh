#!/usr/bin/env bash
# The native window under a virtual X server: it starts, draws the same panel as the page,
# and computes the same numbers as the CLI. Saves a screenshot and checks it is not blank.
#   tests/gui/native_window.sh <gpuplan-gui> <gpuplan> <artifacts dir>
set -euo pipefail
gui=$1 cli=$2 out=$3
mkdir -p "$out"
state='v=1&model=llama-3.1-70b&weights=q4_k_m&gpu=rtx-4090&count=2&context=8192&batch=1'
# The window speaks the language of LANG where the link names none: English for these runs.
export LANG=C.UTF-8

# Let Xvfb pick a free display number and tell us (-displayfd), so parallel runs never collide.
dispfile=$(mktemp)
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$dispfile" >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true; rm -f "$dispfile"' EXIT
for _ in $(seq 100); do [ -s "$dispfile" ] && break; sleep 0.1; done
[ -s "$dispfile" ] || { echo "FAIL: Xvfb did not start"; exit 1; }
display=:$(head -n1 "$dispfile")
export DISPLAY=$display

# Photographs the screen into $1 once the window has drawn (a loaded machine may take a while
# to map it): up to six seconds, until the picture has several colours.
photograph() {
  for _ in $(seq 12); do
    sleep 0.5
    import -window root "$1"
    [ "$(convert "$1" -format '%k' info:)" -ge 8 ] && break
  done
}

# Run long enough to be photographed (~300 frames), then print the report and exit.
"$gui" --state "$state" --size 1280x800 --frames 300 --print-report >"$out/gui-report.json" 2>"$out/gui-stderr.txt" &
gui_pid=$!
photograph "$out/native-window.png"
wait $gui_pid

# Same numbers as the CLI, byte for byte.
"$cli" fit --state "$state" --format json >"$out/cli-report.json"
if ! cmp -s "$out/gui-report.json" "$out/cli-report.json"; then
  echo "FAIL: the native window's report differs from the CLI's"; diff "$out/gui-report.json" "$out/cli-report.json" | head -20
  exit 1
fi
# Not blank: several colours, and no single colour covering nearly the whole window.
colors=$(convert "$out/native-window.png" -format '%k' info:)
top=$(convert "$out/native-window.png" -format %c histogram:info:- | sort -rn | head -1 | awk -F: '{print $1+0}')
pixels=$((1280 * 800))
share=$((100 * top / pixels))
if [ "$colors" -lt 8 ] || [ "$share" -ge 97 ]; then
  echo "FAIL: screenshot looks blank ($colors colours, one covers $share%)"; exit 1
fi
echo "ok: native window report equals the CLI's; screenshot $out/native-window.png: $colors colours, background $share%"

# The other panels: the same tabs as the page (tab= in the state), each photographed, each
# panel's numbers equal to its CLI command's; the Cost panel also in the light theme.
for panel in speed cost compare train roofline cost:light; do
  name=${panel%%:*} theme=dark shot="$out/native-panel-$name.png"
  if [ "$panel" != "$name" ]; then theme=${panel#*:} shot="$out/native-panel-$name-$theme.png"; fi
  "$gui" --state "$state&tab=$name&theme=$theme" --size 1280x800 --frames 240 --print-result "$name" \
    >"$out/gui-$name.json" 2>>"$out/gui-stderr.txt" &
  gui_pid=$!
  photograph "$shot"
  wait $gui_pid
  "$cli" "$name" --state "$state" --format json >"$out/cli-$name.json"
  if ! cmp -s "$out/gui-$name.json" "$out/cli-$name.json"; then
    echo "FAIL: the native window's $name panel differs from gpuplan $name"
    diff "$out/gui-$name.json" "$out/cli-$name.json" | head -20
    exit 1
  fi
  colors=$(convert "$shot" -format '%k' info:)
  [ "$colors" -ge 8 ] || { echo "FAIL: $shot looks blank ($colors colours)"; exit 1; }
  echo "ok: native $name panel ($theme) equals gpuplan $name; $shot: $colors colours"
done

# Japanese (lang=ja): the built-in message table and the system's Japanese font; the Cost panel
# in yen with an air-cooled rack equals gpuplan cost --lang ja.
ja="$state&tab=cost&currency=jpy&cooling=air&lang=ja"
shot="$out/native-panel-cost-ja.png"
"$gui" --state "$ja" --size 1280x800 --frames 240 --print-result cost >"$out/gui-cost-ja.json" 2>>"$out/gui-stderr.txt" &
gui_pid=$!
photograph "$shot"
wait $gui_pid
"$cli" cost --state "$ja" --lang ja --format json >"$out/cli-cost-ja.json"
if ! cmp -s "$out/gui-cost-ja.json" "$out/cli-cost-ja.json"; then
  echo "FAIL: the native window's Japanese cost panel differs from gpuplan cost --lang ja"
  diff "$out/gui-cost-ja.json" "$out/cli-cost-ja.json" | head -20
  exit 1
fi
grep -q 'クラウド' "$out/gui-cost-ja.json" || { echo "FAIL: no Japanese in the window's cost result"; exit 1; }
colors=$(convert "$shot" -format '%k' info:)
[ "$colors" -ge 8 ] || { echo "FAIL: $shot looks blank ($colors colours)"; exit 1; }
echo "ok: native cost panel in Japanese equals gpuplan cost --lang ja; $shot: $colors colours"
