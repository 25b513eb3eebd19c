#!/bin/bash
# `ssdlab sweep --slurm` on a real Slurm (label long): a throwaway single-node
# cluster (slurm-cluster.sh) runs a small sweep through the generated submit
# script (a preconditioning task per shared state, the jobs as arrays in
# chunks, as the cluster's MaxArraySize is 3 here, collect after them), and
# its sweep.csv must equal the same sweep run locally; one task is made to
# fail, collect must say so and exit 1, and rerunning that task by its array
# index and chunk offset alone (sbatch --array=I SCRIPT OFFSET) must make
# collect whole and equal again. Skips (exit 77) where Debian's slurm-wlm or munge is not installed.
# Usage: slurm_sweep_test.sh SSDLAB SOURCE_DIR WORK_DIR
set -euo pipefail
ssdlab=$1 source=$2 work=$3
for tool in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$tool" > /dev/null || { echo "SKIP: $tool not installed (apt-get install slurm-wlm munge)"; exit 77; }
done
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
. "$source/tests/slurm/slurm-cluster.sh"
trap stop_cluster EXIT
start_cluster "$work/cluster" 3
export XDG_CACHE_HOME="$work/cache"

# 2 over-provisionings x 2 workloads, preconditioned: 4 jobs, 2 shared states.
cat > "$work/sweep.toml" <<TOML
configs = ["$source/configs/tiny.toml"]
sets = [["ftl.overprovisioning=0.10"], ["ftl.overprovisioning=0.25"]]
workloads = ["RW:count=2000", "SW:count=1000"]
precondition = "random"
TOML
out="$work/slurm out"  # a space: the script's paths are quoted
"$ssdlab" sweep "$work/sweep.toml" -o "$out" --slurm "$work/sweep.sbatch" --max-array-size 3
touch "$out/job-00003"  # job 3 (task 0 of the second chunk) fails: its folder cannot be made
XDG_CACHE_HOME="$work/cache" bash "$work/sweep-submit.sh" | tee "$work/submit.txt"
collect_job=$(sed -n 's/^collect: \([0-9]*\).*/\1/p' "$work/submit.txt")
wait_job "$collect_job" 150
ls "$out/logs"
grep -q "job-00003 missing" "$out"/logs/slurm-"$collect_job"_0.log || {
  echo "FAIL: collect did not report the failed job"; cat "$out"/logs/*; exit 1; }
grep -l "job 3:" "$out"/logs/slurm-*_0.log > /dev/null || { echo "FAIL: no log of job 3's failure"; exit 1; }
grep -q '"threads": 1' "$out/job-00000/summary.json" || {
  echo "FAIL: preconditioning did not follow --cpus-per-task=1"; exit 1; }
grep -q '"state_cache": "hit"' "$out/job-00000/summary.json" || {
  echo "FAIL: job 0 did not load the state its preconditioning task made"; exit 1; }

# Rerun the failed task by its index and offset alone, then collect again.
rm "$out/job-00003"
rerun=$(sbatch --parsable --array=0 "$work/sweep.sbatch" 3)
wait_job "${rerun%%;*}" 60
"$ssdlab" collect "$out"

"$ssdlab" sweep "$work/sweep.toml" -o "$work/local" -q > /dev/null
diff "$work/local/sweep.csv" "$out/sweep.csv"
echo "PASS: the Slurm sweep's sweep.csv equals the local one"
