#!/usr/bin/env bash
# Builds June at another commit, so `npm run bench` can time it beside this checkout's June in
# one run (contenders "June run(), baseline build" and its batch mode):
#   eval "$(bench/baseline.sh <commit>)" && npm run bench
# The build goes to a temporary folder (a detached git worktree); it prints the line that sets
# JUNE_BASELINE. Dependencies: when the commit's package-lock.json is this checkout's, the
# folder uses this checkout's node_modules (a link); when it differs (another AI SDK major, say),
# the folder gets its own (`npm ci --ignore-scripts`), so the baseline runs on the packages it
# was built for, and it is compiled with its own TypeScript. Remove the folder afterwards with
# `git worktree remove --force <folder>`.
set -euo pipefail
commit="${1:?usage: bench/baseline.sh <commit>}"
root="$(git rev-parse --show-toplevel)"
dir="$(mktemp -d "${TMPDIR:-/tmp}/june-baseline-XXXXXX")"
git -C "$root" worktree add --quiet --detach "$dir" "$commit" >&2
if cmp -s "$root/package-lock.json" "$dir/package-lock.json"; then
  ln -s "$root/node_modules" "$dir/node_modules"
else
  echo "bench/baseline.sh: $commit has other dependencies than this checkout; installing them in $dir" >&2
  (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund >&2)
fi
(cd "$dir" && ./node_modules/.bin/tsc -p tsconfig.build.json >&2)
echo "export JUNE_BASELINE='$dir'"
