# A throwaway single-node Slurm cluster on localhost, for the tests: munged,
# slurmctld and slurmd of Debian's slurm-wlm and munge, each with its own
# files in one folder (config, key, sockets, state, logs), started by
# start_cluster and stopped by stop_cluster (exactly the daemons it
# started, by their process ids). No cgroups (proctrack/linuxproc,
# task/affinity), select/cons_tres with memory, no accounting. Sourced:
#   . tests/slurm/slurm-cluster.sh; start_cluster DIR; ...; stop_cluster
# Clients (sbatch, squeue, scontrol) find it through SLURM_CONF.

cluster_pids=()

# A TCP port nothing listens on now.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_cluster() {
  local dir=$1 max_array=${2:-1001}
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  chmod 700 "$dir/munge"
  head -c 1024 /dev/urandom > "$dir/munge/munge.key"
  chmod 400 "$dir/munge/munge.key"
  munged -F -f --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" > "$dir/munge/munged.out" 2>&1 &
  cluster_pids+=($!)
  local user; user=$(id -un)
  cat > "$dir/slurm.conf" <<CONF
ClusterName=ssdlabtest
SlurmctldHost=localhost
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
MaxArraySize=$max_array
SchedulerParameters=sched_interval=1
SchedulerTimeSlice=5
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 RealMemory=2000 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$dir/slurm.conf"
  for i in $(seq 50); do [ -S "$dir/munge/munge.sock" ] && break; sleep 0.1; done
  slurmctld -D -i -f "$SLURM_CONF" > "$dir/slurmctld.out" 2>&1 &
  cluster_pids+=($!)
  slurmd -D -N localhost -f "$SLURM_CONF" > "$dir/slurmd.out" 2>&1 &
  cluster_pids+=($!)
  for i in $(seq 100); do
    sinfo -h -o %t 2>/dev/null | grep -qx idle && return 0
    sleep 0.2
  done
  echo "the test cluster did not come up:"; tail -5 "$dir"/*.log "$dir"/*.out
  return 1
}

stop_cluster() {
  local pid
  for pid in "${cluster_pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${cluster_pids[@]}"; do wait "$pid" 2>/dev/null; done
  cluster_pids=()
}

# Waits (at most $2 seconds) until job $1 (and its array tasks) left the queue.
wait_job() {
  local job=$1 limit=${2:-120} i
  for i in $(seq $((limit * 2))); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  echo "job $job still queued after $limit s:"; squeue; return 1
}
