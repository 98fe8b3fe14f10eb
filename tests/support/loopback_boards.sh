#!/bin/sh
# Stand-in K1 boards on this machine for tests: OpenSSH servers on 127.0.0.1 whose "board" runs riscv64
# programs through qemu-riscv64 (the profile's exec_prefix), and the board profile that points at them.
#
#   loopback_boards.sh start DIR N   start N boards; writes DIR/board.toml (a pool of all N)
#   loopback_boards.sh restart DIR I start board I again (after a test killed it)
#   loopback_boards.sh stop DIR      stop them and everything their sessions started
#
# Needs sshd (openssh-server), ssh, ssh-keygen and qemu-riscv64. Everything lives under DIR. The exec
# prefix is DIR/board-exec: it appends the board's port to DIR/used.log (which board ran a program), sleeps
# first while DIR/hold exists (a run still going, for kill tests), then runs the program under qemu.
set -eu
cmd=${1:?usage: loopback_boards.sh start DIR N | stop DIR}
dir=${2:?usage: loopback_boards.sh start DIR N | stop DIR}
PATH=$PATH:/usr/sbin:/sbin

stop() {
  for pidfile in "$dir"/b*/sshd.pid; do
    [ -r "$pidfile" ] || continue
    kill -TERM "$(cat "$pidfile")" 2>/dev/null || true
  done
  # Sessions and whatever they started (also orphans re-parented to PID 1): found by their run directory.
  for sig in TERM KILL; do
    for p in /proc/[0-9]*; do
      pid=${p#/proc/}
      [ "$pid" = $$ ] && continue
      cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
      case $cwd in "$dir"/remote/*) kill -$sig "$pid" 2>/dev/null || true ;; esac
      if tr '\0' ' ' < "$p/cmdline" 2>/dev/null | grep -q -- "$dir/b[0-9]*/sshd_config"; then kill -$sig "$pid" 2>/dev/null || true; fi
    done
    [ $sig = TERM ] && sleep 0.3
  done
}

# Starts board $1's sshd (its configuration written already) and waits until it listens.
launch() {
  b="$dir/b$1"
  : > "$b/sshd.log"
  setsid "$(command -v sshd)" -D -f "$b/sshd_config" -E "$b/sshd.log" </dev/null >"$b/sshd.out" 2>&1 &
}
wait_listening() {
  b="$dir/b$1"
  t=0
  until grep -q "Server listening on 127.0.0.1" "$b/sshd.log" 2>/dev/null; do
    t=$((t + 1)); [ $t -gt 100 ] && { echo "sshd in $b did not start: $(cat "$b/sshd.log" "$b/sshd.out")" >&2; return 1; }
    sleep 0.05
  done
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
if [ "$cmd" = restart ]; then
  i=${3:?usage: loopback_boards.sh restart DIR I}
  launch "$i"
  wait_listening "$i"
  exit 0
fi
n=${3:?usage: loopback_boards.sh start DIR N}
mkdir -p "$dir/remote" /run/sshd 2>/dev/null || mkdir -p "$dir/remote"
chmod 755 "$dir"
ssh-keygen -q -t ed25519 -N '' -f "$dir/host_ed25519" </dev/null
ssh-keygen -q -t ed25519 -N '' -f "$dir/id_ed25519" </dev/null
cp "$dir/id_ed25519.pub" "$dir/authorized_keys"
user=$(id -un)
cat > "$dir/board-exec" <<EXEC
#!/bin/sh
port=\${SSH_CONNECTION##* }
echo "\${port:-none}" >> "$dir/used.log"
while [ -e "$dir/hold" ]; do sleep 0.2; done
exec qemu-riscv64 -cpu rv64,v=true,vlen=256,elen=64,vext_spec=v1.0,Zfh=true,zba=true,zbb=true,zbs=true "\$@"
EXEC
chmod 755 "$dir/board-exec"
: > "$dir/known_hosts"
hosts=""
i=1
while [ $i -le "$n" ]; do
  b="$dir/b$i"
  mkdir -p "$b"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  penalties=""
  if sshd -T -f /dev/null -o PerSourcePenalties=no -o HostKey="$dir/host_ed25519" >/dev/null 2>&1; then penalties="PerSourcePenalties no"; fi
  cat > "$b/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_ed25519
PidFile $b/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
AuthenticationMethods publickey
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
LogLevel VERBOSE
MaxSessions 64
MaxStartups 64:30:128
ClientAliveInterval 5
ClientAliveCountMax 3
$penalties
CONF
  launch "$i"
  echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$dir/host_ed25519.pub")" >> "$dir/known_hosts"
  echo "$port" > "$b/port"
  hosts="$hosts${hosts:+, }\"$user@127.0.0.1:$port\""
  i=$((i + 1))
done
# Ready when every listener logged that it listens.
i=1
while [ $i -le "$n" ]; do
  wait_listening "$i" || { stop; exit 1; }
  i=$((i + 1))
done
cat > "$dir/board.toml" <<TOML
name = "k1-loopback"
description = "test boards: sshd on 127.0.0.1 running riscv64 programs under qemu-riscv64"
runner = "ssh"
virtual_board = "k1"

[ssh]
hosts = [$hosts]
identity_file = "$dir/id_ed25519"
options = ["StrictHostKeyChecking=yes", "UserKnownHostsFile=$dir/known_hosts", "ConnectTimeout=5"]
remote_dir = "$dir/remote"
exec_prefix = ["$dir/board-exec"]
timeout_seconds = 60

[measure]
warmup = 2
repeats = 7
TOML
