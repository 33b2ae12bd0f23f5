#!/usr/bin/env bash
# Instructions per process of `offloadctl item add` and `offloadctl item move` on a large list,
# counted with callgrind (independent of the machine's load).
#
# Usage: Tools/Benchmarks/callgrind-items.sh [OFFLOADCTL ...]
#   OFFLOADCTL  release binaries to count (default: .build/release/offloadctl); give two (say,
#               a build of an earlier commit and this one) to compare them on the same input.
# Environment: ITEMS (default 10000) items in the list; WARM (default 16) adds made before the
# counted commands, so the change journal holds 16 changes (the middle of its 0 to 31, and
# neither counted command checkpoints); KEEP=1 keeps the stores and callgrind.out files;
# DEVICES=N (default 1) shares the store (`store share`) and gives it the logs of N-1 other
# devices, each a copy of the store at another path with its own XDG_STATE_HOME that made WARM
# adds of its own, carried back as a sync engine would (its `replicas/<id>/` folder).
#
# valgrind 3.19 cannot read the DWARF of a Swift 6.3 binary, so each binary is counted through
# a stripped copy (the instructions executed are the same). Every binary gets a fresh store
# made by `collection import Big` of `- item N with some text to carry` lines, then WARM adds,
# then (counted) `item add Big hello --quiet` and `item move <row 5,000> --after <row 100>
# --quiet`. Prints one line per binary and command: the instruction count in millions.
# Build first: swift build -c release --product offloadctl
set -euo pipefail

items=${ITEMS:-10000}
warm=${WARM:-16}
devices=${DEVICES:-1}
repository=$(cd "$(dirname "$0")/../.." && pwd)
binaries=("$@")
((${#binaries[@]})) || binaries=("$repository/.build/release/offloadctl")
command -v valgrind >/dev/null || { echo "callgrind-items: valgrind is not installed" >&2; exit 77; }

work=$(mktemp -d /tmp/callgrind-items.XXXXXX)
[[ ${KEEP:-0} == 1 ]] || trap 'rm -rf "$work"' EXIT
python3 -c "[print('- item %d with some text to carry' % i) for i in range($items)]" \
  >"$work/big.md"

# count LABEL BINARY STORE ARGS...: run under callgrind, print the count in millions.
count() {
  local label=$1 binary=$2 store=$3
  shift 3
  local out="$work/callgrind.$label.out"
  OFFLOAD_HOME=$store valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$binary" "$@" 2>"$work/valgrind.$label.log" >/dev/null \
    || { echo "callgrind-items: $label failed:" >&2; cat "$work/valgrind.$label.log" >&2; exit 1; }
  local collected
  collected=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/valgrind.$label.log")
  printf '  %-12s %8.1f M\n' "${label%.*}" "$(echo "$collected / 1000000" | bc -l)"
}

echo "items=$items warm adds=$warm devices=$devices (valgrind $(valgrind --version | sed 's/valgrind-//'))"
index=0
for binary in "${binaries[@]}"; do
  [[ -x $binary ]] || { echo "callgrind-items: no executable $binary" >&2; exit 1; }
  index=$((index + 1))
  echo "$binary"
  stripped="$work/offloadctl.$index"
  strip -o "$stripped" "$binary"
  store="$work/store.$index"
  # This device's identity (used once the store is shared) lives outside the store.
  export XDG_STATE_HOME="$work/state.$index.0"
  OFFLOAD_HOME=$store "$binary" collection import Big "$work/big.md" >/dev/null 2>&1
  if ((devices > 1)); then
    OFFLOAD_HOME=$store "$binary" store share --quiet
    for ((device = 1; device < devices; device++)); do
      copy="$work/store.$index.device$device"
      cp -a "$store" "$copy"
      for ((i = 1; i <= warm; i++)); do
        XDG_STATE_HOME="$work/state.$index.$device" OFFLOAD_HOME=$copy "$binary" \
          item add Big "device $device w$i" --quiet
      done
      for folder in "$copy"/replicas/*; do
        [[ -e $store/replicas/${folder##*/} ]] || cp -a "$folder" "$store/replicas/"
      done
    done
  fi
  for ((i = 1; i <= warm; i++)); do
    OFFLOAD_HOME=$store "$binary" item add Big "w$i" --quiet
  done
  rows=$(OFFLOAD_HOME=$store "$binary" collection show Big)
  moving=$(awk 'NR == 5001 { print $1 }' <<<"$rows")
  anchor=$(awk 'NR == 101 { print $1 }' <<<"$rows")
  count "item-add.$index" "$stripped" "$store" item add Big hello --quiet
  count "item-move.$index" "$stripped" "$store" item move "$moving" --after "$anchor" --quiet
done
[[ ${KEEP:-0} != 1 ]] || echo "kept: $work"
