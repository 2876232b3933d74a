#!/usr/bin/env bash
# The GTK example's end-to-end test (run by `make test-gtk`): gtk-counter under Xvfb, clicked and
# ticking for 3 s; a screenshot of the screen must contain its window, and its report must show
# one redraw per loop iteration at most, the clicks counted and the label showing the model.
# Skips (exit 0, with the reason) only when no X server can start.
#   xvfb-test.sh [gtk-counter binary] [screenshot.png]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/.build/debug/gtk-counter}
shot=${2:-$here/.build/gtk-counter-screenshot.png}
work=$(mktemp -d)
xvfb_pid=""
app_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "gtk-counter test FAILED: $*"; for f in "$work"/out "$work"/err; do [ -s "$f" ] && sed 's/^/  | /' "$f"; done; exit 1; }

if ! command -v Xvfb >/dev/null; then echo "gtk-counter test SKIPPED: Xvfb is not installed (make deps installs xvfb)"; exit 0; fi

# Xvfb picks a free display itself and writes its number once it accepts connections
# (-displayfd): no race with other X servers on the machine, and no guessing when it is ready.
Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp -br 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
display=""
for _ in $(seq 600); do
  if [ -s "$work/display" ]; then display=$(head -n 1 "$work/display"); break; fi
  kill -0 "$xvfb_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$display" ] || ! DISPLAY=":$display" xwininfo -root >/dev/null 2>&1; then
  state="still starting after 60 s"
  kill -0 "$xvfb_pid" 2>/dev/null || state="exited"
  echo "gtk-counter test SKIPPED: no X server could start (Xvfb $state): $(tail -n 3 "$work/xvfb.log" | tr '\n' ' ')"
  exit 0
fi

export DISPLAY=":$display" GDK_BACKEND=x11 GSK_RENDERER=cairo NO_AT_BRIDGE=1 GTK_A11Y=none
"$bin" --exit-after 3 --clicks 3 --report >"$work/out" 2>"$work/err" &
app_pid=$!
for _ in $(seq 300); do
  grep -qx ready "$work/out" 2>/dev/null && break
  kill -0 "$app_pid" 2>/dev/null || break
  sleep 0.1
done
grep -qx ready "$work/out" || fail "the window never reported ready"

# The window, found by its title, and the screen captured by us (not by the app).
info=$(xwininfo -name "GTK Counter") || fail "no window titled 'GTK Counter' on :$display"
field() { echo "$info" | sed -n "s/^ *$1: *\([0-9-]*\).*/\1/p"; }
x=$(field "Absolute upper-left X"); y=$(field "Absolute upper-left Y")
w=$(field "Width"); h=$(field "Height")
[ "${w:-0}" -ge 100 ] && [ "${h:-0}" -ge 60 ] || fail "window is ${w}x${h}, expected a real window"
mkdir -p "$(dirname "$shot")"
import -display ":$display" -window root "$shot" || fail "import could not take a screenshot"

# Inside the window: GTK's light theme (bright on average) with text and buttons (contrast).
# Outside it: the black root window of `Xvfb -br`.
read -r mean deviation < <(convert "$shot" -crop "${w}x${h}+${x}+${y}" +repage -colorspace gray \
  -format "%[fx:mean] %[fx:standard_deviation]\n" info:)
outside=$(convert "$shot" -crop "1x1+$((x + w + 5 < 640 ? x + w + 5 : 0))+$((y + h + 5 < 480 ? y + h + 5 : 479))" \
  -colorspace gray -format "%[fx:mean]" info:)
awk -v m="$mean" -v d="$deviation" -v o="$outside" 'BEGIN { exit !(m > 0.6 && d > 0.03 && o < 0.1) }' ||
  fail "screenshot does not show the window at ${w}x${h}+${x}+${y} (mean $mean, deviation $deviation, outside $outside)"

wait "$app_pid" || fail "gtk-counter exited with status $?"
app_pid=""
report=$(tail -n 1 "$work/out")
num() { echo "$report" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
str() { echo "$report" | sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p"; }
count=$(num count); changes=$(num changes); redraws=$(num redraws); iterations=$(num iterations); ticks=$(num ticks)
[ "$count" = 2 ] || fail "count is '$count' after 3 × '+' and 1 × '−', expected 2 ($report)"
[ "$(str label)" = "Count: 2" ] && [ "$(str expectedLabel)" = "Count: 2" ] || fail "label shows '$(str label)' ($report)"
[ "${ticks:-0}" -ge 10 ] || fail "only '$ticks' timer ticks in 3 s ($report)"
# One initial draw, then at most one per GLib iteration that ran our loop, and far fewer
# redraws than changes (each tick makes two, the clicks four in one callback).
[ "$redraws" -ge 2 ] && [ "$((redraws - 1))" -le "$iterations" ] || fail "redraws $redraws vs iterations $iterations ($report)"
[ "$changes" -ge $((2 * (redraws - 1))) ] || fail "changes $changes vs redraws $redraws ($report)"
echo "gtk-counter test passed: window ${w}x${h} in $shot; $report"
