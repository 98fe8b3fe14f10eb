#include "support/board_fixture.h"

#include <fstream>

#include <elf.h>

#include <cstring>
#include <sstream>

#include "evaluator/elf_object.h"
#include "evaluator/qemu_plugin/measurement_protocol.h"
#include "evaluator/qemu_runner.h"
#include "evaluator/target/eok_markers.h"
#include "evaluator/toolchain.h"

namespace eok::testing {

namespace fs = std::filesystem;

std::unique_ptr<TempDir> VirtualBoardTest::home_;
std::unique_ptr<Workspace> VirtualBoardTest::workspace_;
std::unique_ptr<evaluator::BoardSession> VirtualBoardTest::session_;

fs::path source_root() {
  return EOK_SOURCE_DIR;
}

std::string read_if_exists(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string read_fixture(const std::string& relative) {
  return read_file(fs::path(EOK_TEST_DATA_DIR) / "fixtures" / relative);
}

ProcessResult run_eok(const std::vector<std::string>& args, const fs::path& home, double wall_seconds,
                      uint64_t address_space_bytes, const std::vector<std::string>& extra_env) {
  ProcessSpec spec;
  spec.argv = {(fs::path(EOK_BINARY_DIR) / "eok").string()};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = source_root();
  std::vector<std::string> env = {"EOK_HOME=" + home.string(), "EOK_LLM_DISCOVER=false"};
  if (const char* path = std::getenv("PATH")) env.push_back(std::string("PATH=") + path);
  env.insert(env.end(), extra_env.begin(), extra_env.end());
  spec.env = env;
  spec.limits.wall_seconds = wall_seconds;
  spec.limits.address_space_bytes = address_space_bytes;
  return run_process(spec);
}

void VirtualBoardTest::SetUpTestSuite() {
  home_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-test-home-");
  workspace_ = std::make_unique<Workspace>(Workspace::open(home_->path()));
  session_ = std::make_unique<evaluator::BoardSession>(evaluator::open_board_session(source_root(), *workspace_, "k1"));
}

void VirtualBoardTest::TearDownTestSuite() {
  session_.reset();
  workspace_.reset();
  home_.reset();
}

evaluator::Task VirtualBoardTest::task(const std::string& id) {
  return evaluator::load_task(source_root() / "kernels" / id);
}

evaluator::EvalResult VirtualBoardTest::eval(const std::string& task_id, const std::string& source, uint64_t seed) {
  return session_->evaluator->evaluate_against_baseline(task(task_id), source, seed);
}

fs::path build_program(const fs::path& dir, const std::string& source, const std::string& lang,
                       const std::string& march) {
  const fs::path src = dir / ("prog." + lang), exe = dir / "prog";
  write_file_atomic(src, source);
  ProcessSpec spec;
  spec.argv = {"clang-22",
               "--target=riscv64-linux-gnu",
               "-march=" + march,
               "-O2",
               "-static",
               "-fuse-ld=lld",
               "-I" + (source_root() / "evaluator" / "target").string(),
               src.string(),
               "-o",
               exe.string()};
  ProcessResult r = run_process(spec);
  EXPECT_TRUE(r.ok()) << r.err;
  return exe;
}

namespace {

// The first begin and end marker words in the program's executable pages.
std::pair<uint64_t, uint64_t> find_markers(const std::string& image) {
  evaluator::ElfObject elf(image, ET_EXEC);
  uint64_t begin = 0, end = 0;
  for (const auto& seg : elf.segments()) {
    if (seg.type != PT_LOAD || !(seg.flags & PF_X)) continue;
    for (uint64_t off = 0; off + 4 <= seg.filesz; off += 2) {
      uint32_t w;
      std::memcpy(&w, image.data() + seg.offset + off, 4);
      if (w == EOK_MARK_BEGIN_INSN && !begin) begin = seg.vaddr + off;
      if (w == EOK_MARK_END_INSN && !end) end = seg.vaddr + off;
    }
  }
  return {begin, end};
}

}  // namespace

std::pair<uint64_t, uint64_t> symbol_range(const fs::path& program, const std::string& name) {
  const std::string image = read_file(program);
  evaluator::ElfObject elf(image, ET_EXEC);
  for (const auto& sym : elf.symbols()) {
    if (sym.name == name) return {sym.value, sym.size};
  }
  ADD_FAILURE() << "no symbol " << name << " in " << program;
  return {0, 0};
}

PluginRun run_watched(const evaluator::BoardProfile& board, const fs::path& program, int calls,
                      const std::vector<std::pair<uint64_t, uint64_t>>& code, const std::string& watch) {
  static const evaluator::Toolchain tools = evaluator::find_toolchain(board);
  static const evaluator::sandbox::Sandbox sandbox(evaluator::sandbox_system_paths(tools));
  std::string w = watch;
  if (w.empty()) {
    const auto [begin, end] = find_markers(read_file(program));
    std::ostringstream s;
    s << EOK_WATCH_MAGIC << "\n" << std::hex << "markers " << begin << " " << end << "\nret 0\n";
    for (const auto& [lo, hi] : code) s << "code " << lo << " " << hi << "\n";
    s << std::dec;
    for (int c = 0; c < calls; ++c) s << "call " << c << " " << (c == 0 ? 1 : 0) << " 0\n";
    w = s.str();
  }
  evaluator::QemuRunner runner(board, tools, sandbox);
  evaluator::RunOutcome o = runner.run(evaluator::harness_run(program, "", w, program.parent_path(), true, 60));
  return {o.process, evaluator::parse_measurement(o.measurement), o.harness};
}

ProcessResult run_with_plugin(const evaluator::BoardProfile& board, const fs::path& program, const fs::path& profile) {
  PluginRun r = run_watched(board, program, 1);
  const std::string& m = read_file(program.parent_path() / "measure.bin");
  const size_t pos = m.find("eok-profile 2");
  if (pos != std::string::npos) write_file_atomic(profile, m.substr(pos, m.find("end\n", pos) + 4 - pos));
  return r.process;
}

}  // namespace eok::testing
