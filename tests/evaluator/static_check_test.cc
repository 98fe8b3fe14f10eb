#include "evaluator/static_check.h"

#include <gtest/gtest.h>

#include "src/common/fs_util.h"
#include "src/common/subprocess.h"

namespace eok::evaluator {
namespace {

namespace fs = std::filesystem;

TEST(SourceCheck, AllowsOrdinaryKernels) {
  EXPECT_FALSE(check_source("#include <riscv_vector.h>\n#include <math.h>\nvoid f(float *x) { x[0] = expf(x[0]); }\n"));
}

TEST(SourceCheck, RejectsIncludesOutsideTheAllowList) {
  for (const char* src : {"#include \"/etc/passwd\"\n", "#include <stdio.h>\n", "  #  include <unistd.h>\n",
                          "#include_next <math.h>\n", "#embed \"/etc/shadow\"\n", "#define P \"/etc/x\"\n#include P\n",
                          "#inc\\\nlude </etc/hostname>\n"}) {
    auto v = check_source(src);
    ASSERT_TRUE(v) << src;
    EXPECT_EQ(v->rule, "forbidden-include") << src;
  }
}

TEST(SourceCheck, RejectsInlineAssemblyButNotInCommentsOrStrings) {
  EXPECT_EQ(check_source("void f(void) { __asm__ volatile(\"ecall\"); }")->rule, "inline-asm");
  EXPECT_EQ(check_source("void f(void) { asm(\"nop\"); }")->rule, "inline-asm");
  EXPECT_FALSE(check_source("// asm is not used here\n/* __asm__ */ const char *s = \"asm\"; int plasma;"));
}

TEST(SourceCheck, RejectsConstructorsAndBinaryAndHugeSources) {
  EXPECT_EQ(check_source("__attribute__((constructor)) static void g(void) {}")->rule, "code-outside-call");
  EXPECT_EQ(check_source(std::string("int x;\0", 7))->rule, "binary-source");
  EXPECT_EQ(check_source(std::string(300 * 1024, ' '))->rule, "source-size");
}

TEST(SymbolAllowList, LibmAndMemoryFunctionsOnly) {
  for (const char* ok : {"expf", "exp", "tanhf", "log1pf", "memcpy", "memset", "sqrtf", "__extendhfsf2"}) {
    EXPECT_TRUE(symbol_allowed(ok)) << ok;
  }
  for (const char* bad : {"fopen", "system", "open", "syscall", "malloc", "printf", "mmap", "exit", "f"}) {
    EXPECT_FALSE(symbol_allowed(bad)) << bad;
  }
}

std::string rule_of(const ObjectVerdict& v) { return v.violation ? v.violation->rule : "(none)"; }

// Object checks on what clang really produces.
class ObjectCheck : public ::testing::Test {
 protected:
  std::string compile(const std::string& source, const std::string& lang = "c") {
    TempDir dir(fs::temp_directory_path(), "eok-objcheck-");
    write_file_atomic(dir.path() / ("k." + lang), source);
    ProcessSpec spec;
    spec.argv = {"clang-22", "--target=riscv64-linux-gnu", "-march=rv64gcv", "-O2", "-c",
                 (dir.path() / ("k." + lang)).string(), "-o", (dir.path() / "k.o").string()};
    ProcessResult r = run_process(spec);
    EXPECT_TRUE(r.ok()) << r.err;
    return r.ok() ? read_file(dir.path() / "k.o") : "";
  }
};

TEST_F(ObjectCheck, CleanKernelPassesAndDefinesItsEntry) {
  auto v = check_object(compile("#include <math.h>\nvoid k(float *x, long n) { for (long i = 0; i < n; ++i) x[i] = expf(x[i]); }\n"), "k");
  EXPECT_EQ(rule_of(v), "(none)");
  EXPECT_TRUE(v.entry_defined);
}

TEST_F(ObjectCheck, MissingEntryIsReported) {
  auto v = check_object(compile("void other(float *x) { x[0] = 0; }\n"), "k");
  EXPECT_EQ(rule_of(v), "(none)");
  EXPECT_FALSE(v.entry_defined);
}

TEST_F(ObjectCheck, ForbiddenCallsAreRejected) {
  auto v = check_object(compile("#include <stdio.h>\nvoid k(void) { fopen(\"/etc/passwd\", \"r\"); }\n"), "k");
  ASSERT_EQ(rule_of(v), "forbidden-symbol");
  EXPECT_NE(v.violation->detail.find("fopen"), std::string::npos);
}

TEST_F(ObjectCheck, SystemInstructionsAreRejectedEvenFromAssembly) {
  auto v = check_object(compile(".text\n.globl k\nk:\n li a7, 56\n ecall\n ret\n", "s"), "k");
  ASSERT_EQ(rule_of(v), "system-instruction");
  EXPECT_NE(v.violation->detail.find(".text+0x"), std::string::npos);
}

TEST_F(ObjectCheck, CounterCsrAndMarkersAreRejected) {
  EXPECT_EQ(rule_of(check_object(compile(".text\n.globl k\nk:\n rdcycle a0\n ret\n", "s"), "k")), "forbidden-csr");
  EXPECT_EQ(rule_of(check_object(compile(".text\n.globl k\nk:\n slti zero, zero, 1248\n ret\n", "s"), "k")),
            "measurement-marker");
  EXPECT_EQ(rule_of(check_object(compile(".text\n.globl k\nk:\n frrm a0\n csrr a1, vlenb\n ret\n", "s"), "k")), "(none)");
}

TEST_F(ObjectCheck, ConstructorsAndHugeStaticDataAreRejected) {
  EXPECT_EQ(rule_of(check_object(compile("static void g(void) {}\n"
                                         "__attribute__((section(\".init_array\"), used)) static void (*p)(void) = g;\n"
                                         "void k(void) {}\n"),
                                 "k")),
            "forbidden-section");
  EXPECT_EQ(rule_of(check_object(compile("static char big[1u << 30];\nchar k(long i) { big[i] = 1; return big[i / 2]; }\n"), "k")),
            "static-data-size");
}

TEST_F(ObjectCheck, GarbageIsABadObject) {
  EXPECT_EQ(rule_of(check_object("not an elf file at all", "k")), "bad-object");
  EXPECT_EQ(rule_of(check_object("", "k")), "bad-object");
}

}  // namespace
}  // namespace eok::evaluator
