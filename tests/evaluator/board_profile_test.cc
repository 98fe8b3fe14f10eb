// Board profiles: the virtual board, real boards merged with their virtual twin, and the mistakes a user
// makes in a real board's profile, each named by its key.
#include <gtest/gtest.h>

#include <fstream>

#include "evaluator/board.h"
#include "evaluator/remote/board_timer.h"
#include "evaluator/remote/remote_script.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;
using evaluator::load_board;

class BoardProfiles : public ::testing::Test {
 protected:
  fs::path write(const std::string& text) {
    const fs::path p = dir_.path() / ("board" + std::to_string(++n_) + ".toml");
    std::ofstream(p) << text;
    return p;
  }
  std::string error_of(const std::string& text) {
    try {
      load_board(source_root(), write(text).string());
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  TempDir dir_{fs::temp_directory_path(), "eok-boards-"};
  int n_ = 0;
};

constexpr const char* kSsh = R"(name = "lab"
runner = "ssh"
[ssh]
hosts = ["eok@k1-a:2222", "k1-b"]
options = ["ProxyJump=gw"]
[measure]
repeats = 9
core = 3
max_temperature_c = 65
)";

TEST_F(BoardProfiles, ARealBoardTakesItsTwinsModelAndKeepsItsOwnRunnerAndMeasure) {
  const auto b = load_board(source_root(), write(kSsh).string());
  const auto twin = load_board(source_root(), "k1");
  EXPECT_EQ(b.name, "lab");
  EXPECT_EQ(b.runner, "ssh");
  EXPECT_TRUE(evaluator::is_real_board(b));
  EXPECT_EQ(b.virtual_board, "k1");
  EXPECT_EQ(b.qemu.cpu, twin.qemu.cpu);
  EXPECT_EQ(b.cost_table, twin.cost_table);
  EXPECT_EQ(b.cache.l2_kib, twin.cache.l2_kib);
  EXPECT_EQ(b.tune, twin.tune);
  EXPECT_EQ(b.remote.hosts, (std::vector<std::string>{"eok@k1-a:2222", "k1-b"}));
  EXPECT_EQ(b.remote.options, (std::vector<std::string>{"ProxyJump=gw"}));
  EXPECT_TRUE(b.remote.reuse_connections);
  EXPECT_TRUE(b.remote.exec_prefix.empty());
  EXPECT_EQ(b.measure.repeats, 9u);
  EXPECT_EQ(b.measure.warmup, 3u);
  EXPECT_EQ(b.measure.core, 3);
  EXPECT_DOUBLE_EQ(b.measure.max_temperature_c, 65);
  EXPECT_FALSE(evaluator::is_real_board(twin));
}

TEST_F(BoardProfiles, MistakesNameTheKey) {
  EXPECT_NE(error_of("runner = \"ssh\"\n").find("ssh.hosts"), std::string::npos);
  EXPECT_NE(error_of("runner = \"telnet\"\n").find("runner"), std::string::npos);
  EXPECT_NE(error_of("runner = \"slurm\"\n[slurm]\n").find("slurm.partition"), std::string::npos);
  EXPECT_NE(error_of("runner = \"ssh\"\n[ssh]\nhosts = [\"-oProxyCommand=x\"]\n").find("ssh.hosts"), std::string::npos);
  EXPECT_NE(error_of("runner = \"ssh\"\n[ssh]\nhosts = [\"h\"]\nremote_dir = \"relative\"\n").find("ssh.remote_dir"),
            std::string::npos);
  EXPECT_NE(error_of("runner = \"ssh\"\n[ssh]\nhosts = [\"h\"]\n[measure]\nrepeats = 0\n").find("measure.repeats"),
            std::string::npos);
  EXPECT_NE(
      error_of("runner = \"ssh\"\nvirtual_board = \"nosuch\"\n[ssh]\nhosts = [\"h\"]\n").find("unknown board 'nosuch'"),
      std::string::npos);
  // A real board cannot be another real board's twin (nor its own).
  const fs::path real = write(kSsh);
  EXPECT_NE(error_of("runner = \"ssh\"\nvirtual_board = \"" + real.string() + "\"\n[ssh]\nhosts = [\"h\"]\n")
                .find("virtual_board"),
            std::string::npos);
}

TEST_F(BoardProfiles, AKeyOfTheWrongTypeIsAnErrorNeverItsDefault) {
  const std::string k1 = read_file(source_root() / "configs" / "boards" / "k1.toml");
  auto with = [&](const std::string& from, const std::string& to) {
    std::string text = k1;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  EXPECT_EQ(error_of(k1), "") << "the shipped profile loads";
  EXPECT_NE(error_of(with("vlen = 256", "vlen = \"512\"")).find("vlen: expected a whole number"), std::string::npos);
  EXPECT_NE(error_of(with("l1_ways = 4", "l1_ways = 4.5")).find("cache.l1_ways"), std::string::npos);
  EXPECT_NE(error_of(with("l1_ways = 4", "l1_ways = -4")).find("cache.l1_ways: -4 is out of range"), std::string::npos);
  EXPECT_NE(error_of(with("clock_ghz = 1.6", "clock_ghz = \"fast\"")).find("clock_ghz: expected a number"),
            std::string::npos);
  EXPECT_NE(error_of(with("tune = \"spacemit-x60\"", "tune = 60")).find("tune: expected a string"), std::string::npos);
  EXPECT_NE(error_of(with("extensions = [\"zfh\"", "extensions = [1")).find("extensions"), std::string::npos);
  EXPECT_EQ(error_of(with("clock_ghz = 1.6", "clock_ghz = 2")), "") << "a whole number is a number";
}

TEST_F(BoardProfiles, AnUnknownNameListsTheBoardsAndAcceptsAPath) {
  try {
    load_board(source_root(), "nosuch");
    FAIL() << "no error";
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("k1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(".toml"), std::string::npos) << e.what();
  }
}

TEST(RemoteScript, QuotesEveryWordAndCarriesTheInputVerbatim) {
  EXPECT_EQ(evaluator::remote::sh_quote("a b"), "'a b'");
  EXPECT_EQ(evaluator::remote::sh_quote("it's"), "'it'\\''s'");
  evaluator::BoardProfile b;
  b.remote.exec_prefix = {"qemu-riscv64", "-cpu", "rv64,v=true"};
  // An input line that looks like the here-document's terminator does not end it early.
  const std::string script =
      evaluator::remote::board_script(b, "/tmp/r x", "prog", {"--core", "-1"}, "plan\nEOK_INPUT_END\nmore\n");
  EXPECT_NE(script.find("cd '/tmp/r x'"), std::string::npos);
  EXPECT_NE(script.find("'qemu-riscv64' '-cpu' 'rv64,v=true' './prog' '--core' '-1'"), std::string::npos) << script;
  EXPECT_NE(script.find("<<'EOK_INPUT_END_'\nplan\nEOK_INPUT_END\nmore\nEOK_INPUT_END_\n"), std::string::npos)
      << script;
  // Run as sh would: the input arrives intact.
  TempDir dir(fs::temp_directory_path(), "eok-script-");
  evaluator::BoardProfile cat;
  cat.remote.exec_prefix = {"sh", "-c", "cat", "sh"};
  ProcessSpec p;
  p.argv = {
      "sh", "-c",
      evaluator::remote::board_script(cat, dir.path().string(), "unused", {}, "line 1\nEOK_INPUT_END\n$HOME `x`\n")};
  p.hold_stdin_open = true;
  p.limits.wall_seconds = 20;
  const ProcessResult r = run_process(p);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "line 1\nEOK_INPUT_END\n$HOME `x`\n");
  EXPECT_FALSE(fs::exists(dir.path())) << "the script removes its run directory";
  const auto report = evaluator::remote::parse_script_report(r.err);
  EXPECT_FALSE(report.fact("governor").empty());
  EXPECT_FALSE(report.fact("temperature-millicelsius").empty());
}

TEST(RemoteScript, MedianAndMad) {
  auto [m, mad] = evaluator::remote::median_and_mad({10, 12, 11, 100, 9});
  EXPECT_DOUBLE_EQ(m, 11);
  EXPECT_DOUBLE_EQ(mad, 1);
  std::tie(m, mad) = evaluator::remote::median_and_mad({4, 2});
  EXPECT_DOUBLE_EQ(m, 3);
  EXPECT_DOUBLE_EQ(mad, 1);
}

}  // namespace
}  // namespace eok::testing
