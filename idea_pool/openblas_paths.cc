#include "idea_pool/openblas_paths.h"

#include <filesystem>
#include <set>
#include <utility>
#include <vector>

#include "src/common/text.h"

namespace eok::idea_pool {

namespace fs = std::filesystem;

std::string arch_of_core(const std::string& core) {
  const std::string c = ascii_lower(core);
  if (c.empty()) return "";
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kPrefixes = {
      {"x86_64", {"skylakex",   "cooperlake", "sapphirerapids", "haswell",     "sandybridge", "zen",     "nehalem",
                  "core2",      "penryn",     "dunnington",     "atom",        "prescott",    "opteron", "barcelona",
                  "bobcat",     "bulldozer",  "piledriver",     "steamroller", "excavator",   "nano",    "katmai",
                  "coppermine", "northwood",  "banias",         "athlon"}},
      {"arm64",
       {"armv8", "armv9", "cortexa5", "cortexa7", "cortexx", "cortexa510", "cortexa710", "neoverse", "thunderx",
        "tsv110", "falkor", "emag", "a64fx", "vortex", "ampere", "ft2000"}},
      {"riscv64", {"riscv64", "rv64", "c910", "c920", "x280", "x60"}},
      {"power", {"power", "ppc", "cell"}},
      {"arm", {"armv6", "armv7", "armv5", "cortexa9", "cortexa15"}},
      {"loongarch64", {"loongson3r5", "loongsongeneric", "la64", "la264", "la464", "loongson2k1000"}},
      {"mips64", {"loongson3", "sicortex", "i6400", "p6600", "i6500", "mips64"}},
      {"zarch", {"z13", "z14", "zarch"}},
  };
  for (const auto& [arch, prefixes] : kPrefixes) {
    for (const auto& p : prefixes) {
      if (c.starts_with(p)) return arch;
    }
  }
  return "";
}

namespace {

const std::set<std::string> kArchNames = {"alpha",  "arm",   "arm64",   "csky",  "e2k", "ia64",   "loongarch64", "mips",
                                          "mips64", "power", "riscv64", "sparc", "x86", "x86_64", "zarch"};

// kernel/<dir>/ directories whose code a library for `arch` compiles, besides the shared ones. From
// `git grep '\.\./<dir>/' -- kernel/<arch>` on develop (2024): riscv64 reuses arm64 files, mips64 mips
// files; kernel/arm, kernel/generic and kernel/simd are C kernels that every architecture includes
// (x86_64 and arm64 pick up ../arm/*.c), so they count as shared.
std::set<std::string> kernel_dirs_of(const std::string& arch) {
  if (arch == "riscv64") return {"riscv64", "arm64"};
  if (arch == "mips64") return {"mips64", "mips"};
  return {arch};
}

// Files that never end up in the library: documentation, CI, the test and benchmark programs.
bool never_built(const std::string& path) {
  static const std::vector<std::string> kDirs = {".github/",
                                                 "doc/",
                                                 "docs/",
                                                 "test/",
                                                 "ctest/",
                                                 "utest/",
                                                 "benchmark/",
                                                 "lapack-netlib/TESTING/",
                                                 "lapack-netlib/CBLAS/testing/",
                                                 ".ci/",
                                                 "ci/"};
  for (const auto& d : kDirs) {
    if (path.starts_with(d)) return true;
  }
  const std::string name = fs::path(path).filename().string();
  const std::string ext = ascii_lower(fs::path(path).extension().string());
  if (ext == ".md" || ext == ".rst" || ext == ".yml" || ext == ".yaml") return true;
  const bool top_level = path.find('/') == std::string::npos;
  if (top_level && ext == ".txt" && name != "CMakeLists.txt") return true;  // Changelog.txt, GotoBLAS_*.txt ...
  return top_level &&
         (name.starts_with("Jenkinsfile") || name == ".gitignore" || name == "LICENSE" || name == ".mailmap");
}

// "<prefix><arch><suffix>" file names that only one architecture builds: Makefile.arm64, common_x86_64.h,
// cpuid_x86.c, driver/others/dynamic_arm64.c. Returns the architecture, or "" when the name is shared.
std::string arch_file(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  const std::string stem = fs::path(path).stem().string();
  const bool top_level = path.find('/') == std::string::npos;
  auto tail_arch = [&](const std::string& prefix, const std::string& s) -> std::string {
    if (!s.starts_with(prefix)) return "";
    const std::string a = s.substr(prefix.size());
    return kArchNames.count(a) ? a : "";
  };
  if (top_level) {
    if (auto a = tail_arch("Makefile.", name); !a.empty()) return a;
    if (auto a = tail_arch("common_", stem); !a.empty()) return a;
    if (auto a = tail_arch("cpuid_", stem); !a.empty()) return a;
  }
  if (path.starts_with("driver/others/")) {
    if (name == "dynamic.c") return "x86";  // the x86 and x86_64 core dispatch
    if (auto a = tail_arch("dynamic_", stem); !a.empty()) return a;
  }
  return "";
}

}  // namespace

bool path_affects_arch(const std::string& path, const std::string& arch) {
  if (never_built(path)) return false;
  if (arch.empty()) return true;  // unknown machine: nothing can be ruled out
  if (path.starts_with("kernel/")) {
    const size_t slash = path.find('/', 7);
    if (slash == std::string::npos) return true;  // kernel/Makefile.L3, kernel/setparam-ref.c ...
    const std::string dir = path.substr(7, slash - 7);
    if (!kArchNames.count(dir) || dir == "arm") return true;  // kernel/generic, kernel/simd, kernel/arm: shared
    return kernel_dirs_of(arch).count(dir) > 0;
  }
  const std::string a = arch_file(path);
  if (a.empty()) return true;
  // cpuid_x86.c, common_x86.h's sibling rules: getarch and dynamic.c serve x86 and x86_64 alike, while
  // Makefile.x86 and common_x86.h are only for 32-bit builds.
  if (a == "x86" && arch == "x86_64") {
    const std::string name = fs::path(path).filename().string();
    return name == "cpuid_x86.c" || name == "dynamic.c";
  }
  return a == arch;
}

}  // namespace eok::idea_pool
