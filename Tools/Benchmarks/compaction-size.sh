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
log_size() { # log_size HOME ID: bytes of device ID's own log in HOME's store
  stat -c %s "$1"/store/replicas/"$2"/ops.*.jsonl | tail -1
}
laptop="$work/laptop"
mkdir -p "$laptop"
run "$laptop" collection import Big "$work/big.md" >/dev/null
run "$laptop" store share --quiet
laptop_id=$(ls "$laptop/store/replicas")
for ((i = 1; i <= adds; i++)); do run "$laptop" item add Big "add $i" --quiet; done
echo "alone: log before $(log_size "$laptop" "$laptop_id") bytes"
run "$laptop" store compact
echo "alone: log after $(log_size "$laptop" "$laptop_id") bytes"

# Two devices: the phone is a copy that has seen everything and writes one change.
phone="$work/phone"
mkdir -p "$phone"
cp -a "$laptop/store" "$phone/store"
run "$phone" item add Big "from the phone" --quiet
phone_id=$(ls "$phone/store/replicas" | grep -vx "$laptop_id")
for ((i = 1; i <= adds; i++)); do run "$laptop" item add Big "more $i" --quiet; done
mirror() { # mirror FROM ID TO: device ID's folder from FROM's store into TO's
  rm -rf "$3/store/replicas/$2"
  mkdir -p "$3/store/replicas/$2"
  cp "$1/store/replicas/$2"/{ops.*.jsonl,merged.checkpoint,device.json} \
    "$3/store/replicas/$2/" 2>/dev/null || true
}
mirror "$phone" "$phone_id" "$laptop"
run "$laptop" collection show Big >/dev/null
mirror "$laptop" "$laptop_id" "$phone"
run "$phone" collection show Big >/dev/null
mirror "$phone" "$phone_id" "$laptop"
echo "two: laptop log before $(log_size "$laptop" "$laptop_id") bytes"
for round in 1 2; do
  echo "two, round $round: laptop: $(run "$laptop" store compact)"
  mirror "$laptop" "$laptop_id" "$phone"
  echo "two, round $round: phone: $(run "$phone" store compact)"
  mirror "$phone" "$phone_id" "$laptop"
done
echo "two: laptop log after $(log_size "$laptop" "$laptop_id") bytes"
