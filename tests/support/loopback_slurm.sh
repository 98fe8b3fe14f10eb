#!/bin/sh
# A single-node Slurm cluster on this machine for tests: munged, slurmctld and slurmd without systemd or
# cgroups, one partition "k1" whose node runs riscv64 programs under qemu-riscv64, and the board profile
# that points at it.
#
#   loopback_slurm.sh start DIR   start it; writes DIR/slurm.conf and DIR/board.toml
#   loopback_slurm.sh stop DIR    cancel every job, stop the daemons and anything a job left
#
# Clients need SLURM_CONF=DIR/slurm.conf. DIR/board-exec logs each job's SLURM_JOB_ID to DIR/used.log and
# waits while DIR/hold exists.
set -eu
cmd=${1:?usage: loopback_slurm.sh start DIR | stop DIR}
dir=${2:?usage: loopback_slurm.sh start DIR | stop DIR}
PATH=$PATH:/usr/sbin:/sbin
export SLURM_CONF="$dir/slurm.conf"

stop() {
  scancel --quiet --user="$(id -un)" 2>/dev/null || true
  for f in slurmd.pid slurmctld.pid munge/munged.pid; do
    [ -r "$dir/$f" ] && kill -TERM "$(cat "$dir/$f")" 2>/dev/null || true
  done
  sleep 0.3
  # Job steps outlive slurmd: they carry this SLURM_CONF in their environment. This script and what it
  # starts from here on must not carry it, or the sweep would kill itself.
  unset SLURM_CONF
  for p in /proc/[0-9]*; do
    if (tr '\0' '\n' < "$p/environ") 2>/dev/null | grep -qx "SLURM_CONF=$dir/slurm.conf"; then kill -KILL "${p#/proc/}" 2>/dev/null || true; fi
  done
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
chmod 755 "$dir"
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" "$dir/remote"
chmod 700 "$dir/munge"
mungekey -c -f -b 1024 -k "$dir/munge/munge.key" 2>/dev/null || mungekey --create --force --keyfile="$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" --pid-file="$dir/munge/munged.pid" \
  --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
host=$(hostname -s)
mem=$(awk '/MemTotal/ {print int($2 / 2048)}' /proc/meminfo)
cat > "$dir/slurm.conf" <<CONF
ClusterName=eoktest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
MailProg=$(command -v true)
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MinJobAge=300
KillWait=5
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=k1 Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
slurmctld -i -f "$dir/slurm.conf"
t=0; until scontrol ping >/dev/null 2>&1; do t=$((t + 1)); [ $t -gt 100 ] && { echo "slurmctld did not start: $(tail -5 "$dir/log/slurmctld.log")" >&2; stop; exit 1; }; sleep 0.1; done
slurmd -f "$dir/slurm.conf"
t=0; until [ "$(sinfo -h -p k1 -o %T 2>/dev/null)" = idle ]; do t=$((t + 1)); [ $t -gt 150 ] && { echo "slurmd did not come up: $(tail -5 "$dir/log/slurmd.log")" >&2; stop; exit 1; }; sleep 0.1; done
cat > "$dir/board-exec" <<EXEC
#!/bin/sh
echo "\${SLURM_JOB_ID:-none}" >> "$dir/used.log"
while [ -e "$dir/hold" ]; do sleep 0.2; done
exec qemu-riscv64 -cpu rv64,v=true,vlen=256,elen=64,vext_spec=v1.0,Zfh=true,zba=true,zbb=true,zbs=true "\$@"
EXEC
chmod 755 "$dir/board-exec"
cat > "$dir/board.toml" <<TOML
name = "k1-slurm-test"
description = "test cluster: a single-node Slurm whose node runs riscv64 programs under qemu-riscv64"
runner = "slurm"
virtual_board = "k1"

[slurm]
partition = "k1"
shared_dir = "$dir/remote"
remote_dir = "$dir/remote"
exec_prefix = ["$dir/board-exec"]
timeout_seconds = 60

[measure]
warmup = 1
repeats = 5
TOML
