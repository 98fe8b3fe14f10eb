#include "evaluator/program_measurement.h"

#include "evaluator/elf_object.h"
#include "evaluator/measurement_records.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::evaluator {

namespace fs = std::filesystem;

namespace {

constexpr uint16_t kEtExec = 2, kEtDyn = 3;
constexpr uint32_t kPtInterp = 3;
constexpr const char* kHowToBuild =
    "build it with: clang-22 --target=riscv64-linux-gnu -march=rv64gcv -O2 -static -fuse-ld=lld "
    "-I<eok>/evaluator/target prog.c -o prog";

}  // namespace

void check_static_riscv_program(std::string_view bytes, const std::string& name) {
  auto parse = [&](uint16_t type) -> std::optional<ElfObject> {
    try {
      return ElfObject(bytes, type);
    } catch (const Error&) {
      return std::nullopt;
    }
  };
  std::optional<ElfObject> elf = parse(kEtExec);
  if (!elf) elf = parse(kEtDyn);
  if (!elf) throw Error(name + " is not a riscv64 ELF executable; " + kHowToBuild);
  for (const auto& seg : elf->segments()) {
    if (seg.type == kPtInterp)
      throw Error(name + " is dynamically linked; the board runs static programs only; " + kHowToBuild);
  }
}

ProgramMeasurement measure_program(Runner& runner, const cost::CostModel& model, const fs::path& program,
                                   const std::vector<std::string>& args, const fs::path& scratch,
                                   double timeout_seconds) {
  const std::string bytes = read_regular_file(program, 512ull << 20, "program");
  check_static_riscv_program(bytes, program.string());
  fs::create_directories(scratch);
  TempDir tmp(scratch, "measure-");
  const fs::path copy = tmp.path() / "program";
  write_file_atomic(copy, bytes);
  fs::permissions(copy, fs::perms::owner_all, fs::perm_options::replace);

  RunRequest req;
  req.program = copy;
  req.workdir = tmp.path();
  req.measure = true;
  req.regions = true;
  req.args = args;
  req.timeout_seconds = timeout_seconds;
  RunOutcome out = runner.run(req);

  ProgramMeasurement pm;
  pm.process = out.process;
  pm.program_stdout = out.harness;
  const Measurement m = parse_measurement(out.measurement, MeasurementKind::regions);
  for (const auto& p : m.profiles) {
    if (!p.profile.complete) {
      pm.problem = "the profile of region " + std::to_string(p.call_index) + " is incomplete: this is eok's problem";
      break;
    }
    pm.regions.push_back({p.call_index, model.estimate(p.profile)});
  }
  if (!m.tampered.empty())
    pm.problem = "the measurement file is out of order (" + m.tampered + "): the program wrote into the emulator";
  else if (m.violation)
    pm.problem = m.violation->rule + ": " + m.violation->detail;
  else if (!m.hello)
    pm.problem = "the board's plugin did not start (" + out.process.describe() + "): run `eok doctor`";
  else if (!m.sandboxed)
    pm.problem = "the run was not sandboxed: run `eok doctor`";
  else if (!m.error.empty() && m.error != "truncated record")
    pm.problem = "the measurement file is damaged: " + m.error;
  else if (!m.exited && out.process.ok())
    pm.problem = "the program ended inside a region (EOK_REGION_BEGIN without EOK_REGION_END)";
  return pm;
}

}  // namespace eok::evaluator
