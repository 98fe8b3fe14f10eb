// `eok measure`: a virtual `perf stat` for any statically linked riscv64 Linux program. The program runs on
// the board (the virtual K1: qemu-riscv64 with eok's plugin, in the evaluation sandbox), and every region
// it marks with EOK_REGION_BEGIN()/EOK_REGION_END() (evaluator/target/eok_region.h) is modeled by the very
// cost model that times task evaluations. Caches carry over from region to region as on the board.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "evaluator/cost_model/cost_model.h"
#include "evaluator/runner.h"

namespace eok::evaluator {

struct RegionMeasurement {
  size_t index = 0;
  cost::CostReport cost;
};

struct ProgramMeasurement {
  ProcessResult process;                   // exit code, signal, timeout; stderr of the program
  std::string program_stdout;              // capped at 64 KiB
  std::vector<RegionMeasurement> regions;  // in the order they ended
  // Why the measurement is incomplete or void, empty when it is whole: a region the program began and
  // never ended, markers out of order, a system call the sandbox refused, a broken measurement file.
  std::string problem;
};

// Runs `program` with `args` in a fresh directory under `scratch`. Throws Error when the file is not a
// statically linked riscv64 executable (the message says how to build one) or the board cannot run it;
// whatever the program itself does is reported, never thrown.
ProgramMeasurement measure_program(Runner& runner, const cost::CostModel& model, const std::filesystem::path& program,
                                   const std::vector<std::string>& args, const std::filesystem::path& scratch,
                                   double timeout_seconds);

// Throws Error unless `bytes` is an ELF64 RISC-V executable without a dynamic loader.
void check_static_riscv_program(std::string_view bytes, const std::string& name);

}  // namespace eok::evaluator
