#!/usr/bin/env bash
# Before and after in one run: `bench/alternate.sh <checkout of the older commit> [rounds]` runs `node bench/run.mjs`
# in the older checkout and in this one by turns, so both sides share whatever else the machine is doing. Build the
# server in both first (`npm run build -w server`). BENCH_* settings pass through (e.g. BENCH_ONLY=routes).
set -euo pipefail
base="$1"
rounds="${2:-2}"
here="$(cd "$(dirname "$0")/.." && pwd)"
for round in $(seq 1 "$rounds"); do
  for side in "$base" "$here"; do
    echo "=== round $round: $(git -C "$side" rev-parse --short HEAD) ($side), load $(cut -d' ' -f1 /proc/loadavg)"
    (cd "$side" && node bench/run.mjs)
  done
done
