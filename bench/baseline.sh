#!/usr/bin/env bash
# Builds June at another commit, so `npm run bench` can time it beside this checkout's June in
# one run (contenders "June run(), baseline build" and its batch mode):
#   eval "$(bench/baseline.sh <commit>)" && npm run bench
# The build goes to a temporary folder (a detached git worktree) and uses this checkout's
# node_modules; it prints the line that sets JUNE_BASELINE.
set -euo pipefail
commit="${1:?usage: bench/baseline.sh <commit>}"
root="$(git rev-parse --show-toplevel)"
dir="$(mktemp -d "${TMPDIR:-/tmp}/june-baseline-XXXXXX")"
git -C "$root" worktree add --quiet --detach "$dir" "$commit" >&2
ln -s "$root/node_modules" "$dir/node_modules"
(cd "$dir" && npx tsc -p tsconfig.build.json >&2)
echo "export JUNE_BASELINE='$dir'"
