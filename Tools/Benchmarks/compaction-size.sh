#!/usr/bin/env bash
# The size of a device's log before and after `offloadctl store compact`: a shared store whose
# log holds ITEMS (default 10000) item creates, then ADDS (default 50) adds of one item each.
#   alone:  one device; its compaction keeps only the snapshot.
#   two:    a second device (a copy at another path) that has seen everything; each device
#           compacts twice (the first round keeps this device's changes: the other device
#           has no snapshot yet; the second drops them).
# Usage: Tools/Benchmarks/compaction-size.sh [OFFLOADCTL]   (default .build/debug/offloadctl)
set -euo pipefail
binary=$(realpath "${1:-.build/debug/offloadctl}")
items=${ITEMS:-10000}
adds=${ADDS:-50}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo "# Big"
  for ((i = 1; i <= items; i++)); do echo "- item $i"; done
} >"$work/big.md"
run() { # run HOME ARGS...: offloadctl as the device at HOME
  local home=$1
  shift
  XDG_STATE_HOME="$home/state" OFFLOAD_HOME="$home/store" OFFLOAD_DEVICE_NAME="${home##*/}" \
    "$binary" "$@"
}
log_size() { # log_size HOME: bytes of the device's own log, and the operations it holds
  local id
  id=$(run "$1" store devices --json | grep -o '"replica" *: *"[^"]*"[^}]*"thisDevice" *: *true' |
    sed 's/"replica" *: *"\([^"]*\)".*/\1/')
  stat -c %s "$1"/store/replicas/"$id"/ops.*.jsonl | tail -1
}
laptop="$work/laptop"
mkdir -p "$laptop"
run "$laptop" collection import Big "$work/big.md" >/dev/null
run "$laptop" store share --quiet
for ((i = 1; i <= adds; i++)); do run "$laptop" item add Big "add $i" --quiet; done
echo "alone: log before $(log_size "$laptop") bytes"
run "$laptop" store compact
echo "alone: log after $(log_size "$laptop") bytes"

# Two devices: the phone is a copy that has seen everything and writes one change.
phone="$work/phone"
mkdir -p "$phone"
cp -a "$laptop/store" "$phone/store"
run "$phone" item add Big "from the phone" --quiet
cp -a "$phone/store/replicas/." "$laptop/store/replicas/" 2>/dev/null || true
for ((i = 1; i <= adds; i++)); do run "$laptop" item add Big "more $i" --quiet; done
mirror() { # mirror FROM TO: FROM's own folder into TO's store
  local id
  id=$(run "$1" store devices --json | grep -o '"replica" *: *"[^"]*"[^}]*"thisDevice" *: *true' |
    sed 's/"replica" *: *"\([^"]*\)".*/\1/')
  rm -rf "$2/store/replicas/$id"
  mkdir -p "$2/store/replicas/$id"
  cp "$1/store/replicas/$id"/{ops.*.jsonl,merged.checkpoint,device.json} \
    "$2/store/replicas/$id/" 2>/dev/null || true
}
mirror "$phone" "$laptop"
run "$laptop" collection show Big >/dev/null
mirror "$laptop" "$phone"
run "$phone" collection show Big >/dev/null
mirror "$phone" "$laptop"
echo "two: laptop log before $(log_size "$laptop") bytes"
for round in 1 2; do
  echo "two, round $round: laptop: $(run "$laptop" store compact)"
  mirror "$laptop" "$phone"
  echo "two, round $round: phone: $(run "$phone" store compact)"
  mirror "$phone" "$laptop"
done
echo "two: laptop log after $(log_size "$laptop") bytes"
