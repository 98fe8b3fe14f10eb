// `eok measure`: a program's marked regions on the virtual board, as a user runs it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

class EokMeasure : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { dir_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-measure-"); }
  static void TearDownTestSuite() { dir_.reset(); }
  static ProcessResult eok(std::vector<std::string> args) { return run_eok(args, dir_->path(), 300); }
  static fs::path program(const std::string& name, const std::string& source) {
    const fs::path d = dir_->path() / name;
    fs::create_directories(d);
    return build_program(d, source, "c");
  }
  static std::unique_ptr<TempDir> dir_;
};
std::unique_ptr<TempDir> EokMeasure::dir_;

// The same streaming sum three times over a buffer of argv[1] bytes, then a region that does nothing. The
// passes are one copy of the loop (nounroll), so they run the same machine code.
const char* kRegions = R"(
#include <stdio.h>
#include <stdlib.h>
#include "eok_region.h"
int main(int argc, char **argv) {
  size_t n = strtoul(argv[1], 0, 10) / sizeof(long);
  long *a = malloc(n * sizeof(long)), s = 0;
  for (size_t i = 0; i < n; ++i) a[i] = (long)i;
#pragma nounroll
  for (int r = 0; r < 3; ++r) {
    EOK_REGION_BEGIN();
    for (size_t i = 0; i < n; ++i) s += a[i];
    EOK_REGION_END();
  }
  EOK_REGION_BEGIN();
  EOK_REGION_END();
  printf("sum %ld\n", s);
  return 0;
}
)";

TEST_F(EokMeasure, ReportsEveryRegionInOrderWithTheDocumentedJson) {
  const fs::path exe = program("regions", kRegions);
  ProcessResult r = eok({"measure", "--board", "k1", "--json", "--", exe.string(), "16384"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["board"], "k1");
  EXPECT_EQ(j["exit_code"], 0);
  EXPECT_TRUE(j["problem"].is_null());
  ASSERT_EQ(j["regions"].size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    const auto& g = j["regions"][i];
    EXPECT_EQ(g["index"], i);
    for (const char* key :
         {"cycles", "instructions", "bound", "compute_cycles", "load_stall_cycles", "memory_counters"}) {
      EXPECT_TRUE(g.contains(key)) << key;
    }
  }
  // The buffer (16 KiB, just written) is in L1: every pass costs the same.
  const double first = j["regions"][0]["cycles"], second = j["regions"][1]["cycles"];
  EXPECT_GT(j["regions"][1]["instructions"].get<double>(), 256);
  EXPECT_NEAR(second, j["regions"][2]["cycles"].get<double>(), 1.0);  // deterministic
  EXPECT_NEAR(second, first, 0.02 * first);
  EXPECT_LT(j["regions"][3]["cycles"].get<double>(), 20);  // an empty region costs next to nothing
  EXPECT_NE(r.err.find("sum "), std::string::npos) << "the program's stdout moves to stderr with --json";
}

TEST_F(EokMeasure, CachesCarryOverAndARegionPaysForWhatItMisses) {
  const fs::path exe = program("regions", kRegions);
  // 4 MiB: nothing stays cached between passes; 16 KiB: everything does after the first pass.
  ProcessResult big = eok({"measure", "--json", "--", exe.string(), "4194304"});
  ProcessResult small = eok({"measure", "--json", "--", exe.string(), "16384"});
  ASSERT_EQ(big.exit_code, 0) << big.err;
  ASSERT_EQ(small.exit_code, 0) << small.err;
  const auto b = nlohmann::json::parse(big.out)["regions"][1], s = nlohmann::json::parse(small.out)["regions"][1];
  auto fills = [](const nlohmann::json& region, const char* level) {
    double n = 0;
    for (const char* kind : {"scalar", "vector"}) {
      for (const char* how : {"random", "stream"}) {
        n += region["memory_counters"][std::string("fill_") + kind + "_" + level + "_" + how].get<double>();
      }
    }
    return n;
  };
  EXPECT_GT(fills(b, "dram"), 0.9 * 4194304 / 64);
  EXPECT_EQ(fills(s, "dram") + fills(s, "l2"), 0);
  // Per byte, the streamed region costs more than the cached one.
  EXPECT_GT(b["cycles"].get<double>() / 4194304, 1.2 * s["cycles"].get<double>() / 16384);
}

TEST_F(EokMeasure, HumanOutputHasOneLinePerRegion) {
  const fs::path exe = program("regions", kRegions);
  ProcessResult r = eok({"measure", "--", exe.string(), "4096"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("4 regions"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sum "), std::string::npos) << r.out;
}

TEST_F(EokMeasure, UnendedAndNestedRegionsVoidTheMeasurement) {
  const fs::path unended = program("unended", R"(
#include "eok_region.h"
int main(void) { EOK_REGION_BEGIN(); return 0; }
)");
  ProcessResult r = eok({"measure", "--json", "--", unended.string()});
  EXPECT_EQ(r.exit_code, 6) << r.err << r.out;
  EXPECT_NE(nlohmann::json::parse(r.out)["problem"].get<std::string>().find("inside a region"), std::string::npos)
      << r.out;
  const fs::path nested = program("nested", R"(
#include "eok_region.h"
int main(void) { EOK_REGION_BEGIN(); EOK_REGION_BEGIN(); EOK_REGION_END(); return 0; }
)");
  r = eok({"measure", "--json", "--", nested.string()});
  EXPECT_EQ(r.exit_code, 6) << r.err << r.out;
  EXPECT_NE(nlohmann::json::parse(r.out)["problem"].get<std::string>().find("regions do not nest"), std::string::npos)
      << r.out;
}

TEST_F(EokMeasure, AFailingProgramKeepsItsRegionsAndExitsOne) {
  const fs::path exe = program("fails", R"(
#include "eok_region.h"
int main(void) { EOK_REGION_BEGIN(); EOK_REGION_END(); return 3; }
)");
  ProcessResult r = eok({"measure", "--json", "--", exe.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["exit_code"], 3);
  EXPECT_EQ(j["regions"].size(), 1u);
}

TEST_F(EokMeasure, AProgramThatOpensFilesIsStoppedAndSaysWhy) {
  const fs::path exe = program("opens", R"(
#include <stdio.h>
int main(void) { FILE *f = fopen("/etc/passwd", "r"); return f ? 0 : 1; }
)");
  ProcessResult r = eok({"measure", "--json", "--", exe.string()});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_NE(nlohmann::json::parse(r.out)["problem"].get<std::string>().find("openat"), std::string::npos) << r.out;
}

TEST_F(EokMeasure, WhatIsNotAStaticRiscvProgramIsRefusedWithHowToBuildOne) {
  ProcessResult host = eok({"measure", "--", "/bin/true"});
  EXPECT_NE(host.exit_code, 0);
  EXPECT_NE(host.err.find("-static"), std::string::npos) << host.err;
  ProcessResult missing = eok({"measure", "--", "no/such/program"});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("no/such/program"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace eok::testing
