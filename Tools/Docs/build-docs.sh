#!/usr/bin/env bash
# Builds the DocC documentation of every library module with the toolchain's `docc`,
# without adding a plugin dependency to the package.
#
#   bash Tools/Docs/build-docs.sh            # writes .build/docs/<Module>.doccarchive
#   bash Tools/Docs/build-docs.sh --check    # fails on any DocC warning (used by CI)
set -euo pipefail
cd "$(dirname "$0")/../.."
check=false
[[ ${1:-} == --check ]] && check=true

swift package dump-symbol-graph --minimum-access-level public >/dev/null
graphs=$(find .build -type d -name symbolgraph | head -n 1)
out=.build/docs
mkdir -p "$out"
status=0
for catalog in Sources/*/*.docc; do
  module=$(basename "$catalog" .docc)
  tmp=$(mktemp -d)
  cp "$graphs/$module".symbols.json "$tmp"/ 2>/dev/null || true
  cp "$graphs/$module"@*.symbols.json "$tmp"/ 2>/dev/null || true
  log=$(mktemp)
  docc convert "$catalog" --fallback-display-name "$module" --fallback-bundle-identifier "offload.$module" \
    --additional-symbol-graph-dir "$tmp" --output-path "$out/$module.doccarchive" >"$log" 2>&1 || status=1
  warnings=$(grep -c "warning:" "$log" || true)
  echo "$module: $warnings warnings -> $out/$module.doccarchive"
  if $check && [[ $warnings -gt 0 ]]; then grep -A3 "warning:" "$log" | head -n 40; status=1; fi
  rm -rf "$tmp" "$log"
done
exit $status
