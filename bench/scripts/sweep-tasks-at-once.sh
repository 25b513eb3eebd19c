#!/usr/bin/env bash
# Many array tasks of one sweep started at once, as a Slurm array on many
# nodes starts them (issue 43): freezes a 360-job sweep of the tiny device
# (60 over-provisionings x 6 workloads, preconditioned, so 6 jobs share each
# of 60 states), runs every `sweep -o OUT --job N` with xargs -P, and prints
# how many tasks failed and how often a state was made ("stored") or loaded
# ("hit"): one "stored" per state means no two tasks made the same one.
#   bench/scripts/sweep-tasks-at-once.sh SSDLAB [WORKDIR] [PARALLEL]
set -euo pipefail
ssdlab=$(realpath "$1") work=${2:-out/tasks-at-once} parallel=${3:-24}
source=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work"
ops=$(python3 -c "print(', '.join(f'{0.10 + i * 0.005:.3f}' for i in range(60)))")
cat > "$work/sweep.toml" <<TOML
configs = ["$source/configs/tiny.toml"]
workloads = ["RW:count=500", "SW:count=500", "RR:count=500", "SR:count=500", "RW:count=400", "SW:count=400"]
precondition = "random"
[grid]
"ftl.overprovisioning" = [$ops]
TOML
export XDG_CACHE_HOME="$work/cache"
"$ssdlab" sweep "$work/sweep.toml" -o "$work/out" --slurm "$work/sweep.sbatch" > /dev/null
seq 0 359 | xargs -P "$parallel" -I{} sh -c \
  "'$ssdlab' sweep -o '$work/out' --job {} > '$work/task-{}.log' 2>&1; echo \$? > '$work/task-{}.rc'"
failed=$(cat "$work"/task-*.rc | grep -vc '^0$' || true)
echo "tasks: $(ls "$work"/task-*.rc | wc -l), failed: $failed"
grep -ho '"state_cache": "[a-z ]*"' "$work"/out/job-*/summary.json | sort | uniq -c
"$ssdlab" collect "$work/out" | tail -1
[ "$failed" = 0 ]
