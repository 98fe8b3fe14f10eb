// runner = "ssh": the system OpenSSH client, so ~/.ssh/config, agents, ProxyJump and ControlMaster work as
// users expect. Two commands per job: copy the program, then run the script with eok holding the
// connection's stdin (the remote watchdog's lifeline).
#include <unistd.h>

#include "evaluator/remote/remote_script.h"
#include "evaluator/remote/transport.h"
#include "src/common/error.h"

namespace eok::evaluator::remote {

namespace fs = std::filesystem;

namespace {

// ssh's own failures (connection, authentication, host key) exit with 255; a remote command never does
// here (the harness exits 0-6 or dies by a signal, the script 125 when its directory is missing).
constexpr int kSshFailure = 255;

struct Destination {
  std::string login;  // user@host or host
  std::string port;   // empty: ssh's default or ~/.ssh/config's
};

Destination parse_host(const std::string& host) {
  Destination d{host, ""};
  const size_t colon = host.rfind(':');
  if (colon != std::string::npos && colon + 1 < host.size() &&
      host.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
    d.login = host.substr(0, colon);
    d.port = host.substr(colon + 1);
  }
  return d;
}

class SshTransport : public Transport {
 public:
  SshTransport(BoardProfile board, fs::path control_dir)
      : board_(std::move(board)), control_dir_(std::move(control_dir)) {}

  RemoteOutcome run(const std::string& host, const RemoteJob& job) override {
    const std::string base = board_.remote.remote_dir;
    const std::string dir = base + "/" + fresh_run_name();
    RemoteOutcome out;
    // 1. The program, into a fresh directory; run directories older than a day (a run whose eok died
    //    before its script started) are swept on the way.
    ProcessSpec copy =
        ssh(host,
            "umask 077 && mkdir -p " + sh_quote(base) + " && mkdir " + sh_quote(dir) + " && cat > " +
                sh_quote(dir + "/prog") + " && chmod 700 " + sh_quote(dir + "/prog") + " && { find " + sh_quote(base) +
                " -maxdepth 1 -name 'run-*' -mmin +1440 -exec rm -rf {} + 2>/dev/null; true; }",
            job.timeout_seconds);
    copy.stdin_path = job.program;
    out.process = run_process(copy);
    if (!out.process.ok()) {
      out.unreachable = true;
      out.problem =
          "cannot copy the program to " + host + " (" + out.process.describe() + "): " + first_line(out.process.err);
      return out;
    }
    // 2. The run; the script removes its directory when it ends.
    ProcessSpec run =
        ssh(host, "sh -c " + sh_quote(board_script(board_, dir, "prog", job.args, job.input)), job.timeout_seconds);
    run.hold_stdin_open = true;
    out.process = run_process(run);
    if (out.process.started && !out.process.timed_out && out.process.exit_code == kSshFailure) {
      out.unreachable = true;
      out.problem = "lost " + host + " while running: " + first_line(out.process.err);
    }
    return out;
  }

 private:
  static std::string first_line(const std::string& s) { return printable_line(s); }

  ProcessSpec ssh(const std::string& host, const std::string& command, double timeout) const {
    const Destination d = parse_host(host);
    ProcessSpec p;
    p.argv = {"ssh"};
    // The profile's options first: for ssh the first value of an option wins.
    for (const auto& o : board_.remote.options) p.argv.insert(p.argv.end(), {"-o", o});
    if (!board_.remote.identity_file.empty()) {
      p.argv.insert(p.argv.end(), {"-i", board_.remote.identity_file, "-o", "IdentitiesOnly=yes"});
    }
    p.argv.insert(p.argv.end(), {"-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=5", "-o",
                                 "ServerAliveCountMax=3"});
    if (board_.remote.reuse_connections) {
      p.argv.insert(p.argv.end(), {"-o", "ControlMaster=auto", "-o", "ControlPath=" + (control_dir_ / "cm-%C").string(),
                                   "-o", "ControlPersist=60"});
    }
    if (!d.port.empty()) p.argv.insert(p.argv.end(), {"-p", d.port});
    p.argv.insert(p.argv.end(), {"--", d.login, command});
    p.limits.wall_seconds = timeout;
    p.die_with_parent = true;
    p.capture_limit = 4 << 20;
    return p;
  }

  BoardProfile board_;
  fs::path control_dir_;
};

}  // namespace

std::unique_ptr<Transport> make_ssh_transport(const BoardProfile& board) {
  // ControlPath sockets must stay under 108 bytes: a short private directory of this user.
  const fs::path dir = fs::temp_directory_path() / ("eok-ssh-" + std::to_string(getuid()));
  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::permissions(dir, fs::perms::owner_all, ec);
  if (ec) throw Error("cannot create " + dir.string() + " for ssh connection sockets: " + ec.message());
  return std::make_unique<SshTransport>(board, dir);
}

}  // namespace eok::evaluator::remote
