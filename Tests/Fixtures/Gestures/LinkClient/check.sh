#!/usr/bin/env bash
# Builds and runs a client of the Gestures product alone, in a scratch folder, and checks its
# output: the regression check for "a client of Gestures links on Linux".
# Usage: Tests/Fixtures/Gestures/LinkClient/check.sh [scratch folder]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
scratch=${1:-$(mktemp -d)}
swift build --package-path "$here" --scratch-path "$scratch"
out=$("$scratch/debug/GesturesLinkClient")
expected=$'winner rowSwipe deleted true\nline true replay ["tap"]'
if [[ $out != "$expected" ]]; then
  echo "GesturesLinkClient printed:" >&2
  echo "$out" >&2
  exit 1
fi
echo "GesturesLinkClient links and runs"
