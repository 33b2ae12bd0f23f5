#!/usr/bin/env bash
# The cost of a read in a shared store against the length of its history (decision 0013):
# it should grow with the operations since the last checkpoint, not with the history.
#
# Usage: Tools/Benchmarks/callgrind-history.sh [OFFLOADCTL]
#   OFFLOADCTL  the release binary to measure (default: .build/release/offloadctl).
# Environment: ITEMS (default 500) items in the list; HISTORIES (default "1000 10000 50000")
# operations in the other device's log before the checkpoint; NEW (default "100 1000")
# operations that device makes after it; RUNS (default 3) timed runs (the median is printed);
# KEEP=1 keeps the stores and callgrind.out files.
#
# For each history length H and each count N: device A imports ITEMS items, shares the
# store and adds one item (a device keeps a checkpoint once it has written); device B (a copy of it with its own identity, carried back as a sync engine carries
# its `replicas/<id>/` folder) marks every item done and not done until its log holds H
# operations (the list keeps its ITEMS items, so only the history grows); A reads
# (`collection show --json`: it merges the logs and writes its checkpoint); B then makes N
# more operations (marking items done) and they are carried to A; the next read of A is
# counted: instructions through callgrind (a stripped copy: valgrind 3.19 cannot read a Swift
# 6.3 binary's DWARF), and the median wall time of RUNS runs, each on the same store restored.
# Prints one line per H and N.
set -euo pipefail

items=${ITEMS:-500}
histories=${HISTORIES:-1000 10000 50000}
news=${NEW:-100 1000}
runs=${RUNS:-3}
repository=$(cd "$(dirname "$0")/../.." && pwd)
binary=${1:-$repository/.build/release/offloadctl}
[[ -x $binary ]] || { echo "callgrind-history: no executable $binary" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "callgrind-history: valgrind is not installed" >&2; exit 77; }

work=$(mktemp -d /tmp/callgrind-history.XXXXXX)
[[ ${KEEP:-0} == 1 ]] || trap 'rm -rf "$work"' EXIT
python3 -c "[print('- item %d' % i) for i in range($items)]" >"$work/list.md"
stripped="$work/offloadctl"
strip -o "$stripped" "$binary"

# on DEVICE STORE ARGS...: runs offloadctl as device A or B on a store.
on() {
  local device=$1 store=$2
  shift 2
  XDG_STATE_HOME="$work/state.$device" OFFLOAD_HOME=$store "$binary" "$@"
}

# carry FROM TO ID: copies device ID's folder from FROM into TO, as a sync engine does (never
# the other way: TO's own folder stays its own).
carry() {
  rm -rf "$2/replicas/$3.tmp"
  cp -a "$1/replicas/$3" "$2/replicas/$3.tmp"
  rm -rf "$2/replicas/$3"
  mv "$2/replicas/$3.tmp" "$2/replicas/$3"
}

# marks DEVICE STORE COUNT: makes COUNT operations by marking items done, then not done.
marks() {
  local device=$1 store=$2 left=$3 done=1 size
  while ((left > 0)); do
    size=$((left < items ? left : items))
    if ((done)); then
      on "$device" "$store" item done --in List "1-$size" --quiet
    else
      on "$device" "$store" item undone --in List "1-$size" --quiet
    fi
    done=$((1 - done))
    left=$((left - size))
  done
}

# median COMMAND...: the median wall time of RUNS runs in milliseconds, the store restored
# from "$saved" before each.
median() {
  local times=() start end
  for ((run = 0; run < runs; run++)); do
    rm -rf "$store"
    cp -a "$saved" "$store"
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    times+=($(((end - start) / 1000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] / 1000 }'
}

echo "items=$items runs=$runs (valgrind $(valgrind --version | sed 's/valgrind-//'))"
printf '  %-9s %-6s %14s %10s\n' history new instructions "wall (ms)"
for history in $histories; do
  for new in $news; do
    # A store is one device per path (its identity is keyed by the path): each case builds its
    # own, with B a copy of it.
    store="$work/store.$history.$new"
    other="$store.b"
    on a "$store" collection import List "$work/list.md" >/dev/null
    on a "$store" store share --quiet
    # A's first change writes its own folder: a device that has written keeps a checkpoint.
    on a "$store" item add List "from a" --quiet
    cp -a "$store" "$other"
    marks b "$other" "$history"
    # B's folder: the one its copy holds and A's store does not.
    b=$(comm -13 <(ls "$store/replicas") <(ls "$other/replicas"))
    carry "$other" "$store" "$b"
    # A reads B's history once: it merges the logs and writes its checkpoint.
    on a "$store" collection show List --json >/dev/null 2>&1
    marks b "$other" "$new"
    carry "$other" "$store" "$b"
    saved="$store.saved"
    cp -a "$store" "$saved"
    out="$work/callgrind.$history.$new.out"
    XDG_STATE_HOME="$work/state.a" OFFLOAD_HOME=$store valgrind --tool=callgrind \
      --callgrind-out-file="$out" "$stripped" collection show List --json \
      2>"$work/valgrind.$history.$new.log" >/dev/null \
      || { echo "callgrind-history: the read failed:" >&2; cat "$work/valgrind.$history.$new.log" >&2; exit 1; }
    collected=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/valgrind.$history.$new.log")
    wall=$(median on a "$store" collection show List --json 2>/dev/null)
    printf '  %-9s %-6s %12.1f M %10s\n' "$history" "$new" \
      "$(echo "$collected / 1000000" | bc -l)" "$wall"
  done
done
[[ ${KEEP:-0} != 1 ]] || echo "kept: $work"
