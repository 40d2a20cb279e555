#!/bin/bash
# compare-answers.sh OLD NEW [LOG...]: do two git-adr builds answer alike?
#
# For each log (a folder holding an ADR log, a git repository or not;
# default: every corpus in ../shared/corpora), each build answers six task
# questions on its own copy: cold (no $GIT_DIR/adr/cache), warm, and once
# more after one record changed with the caches kept. The answers (cursors
# masked: each copy signs its own) and index.bin must be byte for byte the
# same. So must the output and exit code of the read-only commands below,
# each run cold. Prints one DIFF line per difference and exits 1 if there
# is any.
set -u
old=$1 new=$2
shift 2
logs=("$@")
[ ${#logs[@]} -eq 0 ] && logs=("$(dirname "$0")"/../../shared/corpora/*)
tasks=("add a read-through cache to the orders API" "how do we version the API and deprecate endpoints"
  "which database do we use for persistence" "logging and monitoring in production"
  "security of secrets and credentials" "testing strategy for integration tests")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mask() { sed -i -E 's/(--cursor |cursor: |"cursor":")[A-Za-z0-9_.-]+/\1C/g' "$@"; }
fail=0
for log in "${logs[@]}"; do
  [ -d "$log" ] || continue
  for b in old new; do
    cp -a "$log" "$tmp/$b"
    (cd "$tmp/$b" && { [ -d .git ] || { git init -q && git add -A && git -c user.name=c -c user.email=c@c commit -qm c; }; }) >/dev/null 2>&1
  done
  run() { # run BUILD KIND TASK: answer in that build's copy
    local bin=$old; [ "$1" = new ] && bin=$new
    (cd "$tmp/$1" && "$bin" context --task "$3" >"$tmp/$1.$2" 2>&1; cat .git/adr/cache/index.bin >"$tmp/$1.$2.idx" 2>/dev/null)
  }
  for t in "${tasks[@]}"; do
    for b in old new; do
      # One cursor key for both copies: token counts include the cursor.
      [ $b = new ] && mkdir -p "$tmp/new/.git/adr" && cp "$tmp/old/.git/adr/cursor.key" "$tmp/new/.git/adr/" 2>/dev/null
      rm -rf "$tmp/$b/.git/adr/cache"
      run $b cold "$t"
      run $b warm "$t"
    done
    mask "$tmp"/old.cold "$tmp"/new.cold "$tmp"/old.warm "$tmp"/new.warm
    for k in cold warm cold.idx; do
      cmp -s "$tmp/old.$k" "$tmp/new.$k" || { echo "DIFF $log [$t] $k"; fail=1; }
    done
  done
  for c in "list" "list --json" "check" "index --check" "graph" "graph --json" "context" "context --json" "compaction"; do
    for b in old new; do
      bin=$old; [ $b = new ] && bin=$new
      # shellcheck disable=SC2086 # the command's words split on purpose
      (cd "$tmp/$b" && rm -rf .git/adr/cache && "$bin" $c >"$tmp/$b.cmd" 2>&1; echo "exit $?" >>"$tmp/$b.cmd")
    done
    mask "$tmp"/old.cmd "$tmp"/new.cmd
    cmp -s "$tmp/old.cmd" "$tmp/new.cmd" || { echo "DIFF $log [git adr $c]"; fail=1; }
  done
  for b in old new; do
    f=$(cd "$tmp/$b" && git ls-files '*.md' | grep -i -E 'adr|decision' | sed -n 5p)
    [ -n "$f" ] && echo "Read-through cache for the orders API." >>"$tmp/$b/$f"
    run $b edit "${tasks[0]}"
  done
  mask "$tmp"/old.edit "$tmp"/new.edit
  for k in edit edit.idx; do
    cmp -s "$tmp/old.$k" "$tmp/new.$k" || { echo "DIFF $log [after an edit] $k"; fail=1; }
  done
  rm -rf "$tmp/old" "$tmp/new"
done
exit $fail
