#include "evaluator/remote/remote_script.h"

#include <algorithm>
#include <sstream>

namespace eok::evaluator::remote {

std::string printable_line(const std::string& s) {
  std::string out;
  for (char c : s.substr(0, std::min<size_t>(s.find('\n'), 200))) {
    const auto u = static_cast<unsigned char>(c);
    out += u >= 0x20 && u < 0x7f ? c : '?';
  }
  return out;
}

std::string sh_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string board_script(const BoardProfile& board, const std::string& run_dir, const std::string& program,
                         const std::vector<std::string>& args, const std::string& input) {
  const auto& m = board.measure;
  std::ostringstream s;
  s << "cd " << sh_quote(run_dir) << " || exit 125\n";
  // Fire the watchdog's trap also when the script itself is killed: the run directory goes either way.
  s << "trap 'cd / && rm -rf " << sh_quote(run_dir) << "' EXIT\n";
  s << "maxtemp() { t=none; for z in /sys/class/thermal/thermal_zone*/temp; do [ -r \"$z\" ] || continue; "
       "v=$(cat \"$z\" 2>/dev/null) || continue; case $v in ''|*[!0-9]*) continue;; esac; "
       "if [ \"$t\" = none ] || [ \"$v\" -gt \"$t\" ]; then t=$v; fi; done; echo $t; }\n";
  if (m.max_temperature_c > 0) {
    const long limit = static_cast<long>(m.max_temperature_c * 1000);
    const long wait = static_cast<long>(m.temperature_wait_seconds);
    s << "waited=0; while t=$(maxtemp); [ \"$t\" != none ] && [ \"$t\" -gt " << limit << " ]; do "
      << "if [ $waited -ge " << wait << " ]; then echo \"eok-board: still-hot=$t\" >&2; break; fi; "
      << "sleep 1; waited=$((waited+1)); done; echo \"eok-board: thermal-wait-seconds=$waited\" >&2\n";
  }
  s << "echo \"eok-board: temperature-millicelsius=$(maxtemp)\" >&2\n";
  s << "echo \"eok-board: node=$(hostname 2>/dev/null || uname -n)\" >&2\n";
  // The input travels inside the script (a quoted here-document: no expansion); its terminator is a line
  // the input cannot contain.
  std::string end = "EOK_INPUT_END";
  while (input.find(end) != std::string::npos) end += "_";
  s << "cat > input <<'" << end << "'\n" << input << (input.empty() || input.back() == '\n' ? "" : "\n") << end << "\n";
  const int core = m.core >= 0 ? m.core : 0;
  s << "g=$(cat /sys/devices/system/cpu/cpu" << core << "/cpufreq/scaling_governor 2>/dev/null); "
    << "echo \"eok-board: governor=${g:-none}\" >&2\n";
  // The watchdog: fd 3 is eok's end of the connection; when it reaches end of file, the run is killed.
  s << "exec 3<&0\n";
  s << "setsid";
  for (const auto& w : board.remote.exec_prefix) s << ' ' << sh_quote(w);
  s << ' ' << sh_quote("./" + program);
  for (const auto& a : args) s << ' ' << sh_quote(a);
  s << " <input & p=$!\n";
  // The watchdog also has a deadline: where eok's end does not close with eok (a Slurm step keeps its
  // task's stdin open after srun dies), the run still ends when eok would have given up on it. It leaves
  // the run directory at once, so that nothing of it stays there once the run ends.
  s << "deadline=; command -v timeout >/dev/null 2>&1 && deadline=\"timeout "
    << static_cast<long>(board.remote.timeout_seconds) + 1 << "\"\n";
  s << "{ cd / && $deadline cat <&3 >/dev/null; kill -KILL -$p 2>/dev/null; } >/dev/null 2>&1 & w=$!\n";
  s << "exec 3<&-\n";
  s << "wait $p; rc=$?; kill $w 2>/dev/null; exit $rc\n";
  return s.str();
}

std::string ScriptReport::fact(const std::string& key) const {
  for (const auto& [k, v] : facts) {
    if (k == key) return v;
  }
  return {};
}

ScriptReport parse_script_report(const std::string& err) {
  ScriptReport r;
  std::istringstream in(err);
  std::string line;
  const std::string tag = "eok-board: ";
  while (std::getline(in, line)) {
    if (line.rfind(tag, 0) == 0) {
      const std::string kv = line.substr(tag.size());
      const size_t eq = kv.find('=');
      r.facts.emplace_back(kv.substr(0, eq), eq == std::string::npos ? "" : kv.substr(eq + 1));
    } else {
      r.program_stderr += line + "\n";
    }
  }
  return r;
}

}  // namespace eok::evaluator::remote
