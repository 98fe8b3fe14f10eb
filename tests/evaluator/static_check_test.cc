#include "evaluator/static_check.h"

#include <gtest/gtest.h>

#include "src/common/fs_util.h"
#include "src/common/subprocess.h"
#include "evaluator/board.h"
#include "evaluator/toolchain.h"

namespace eok::evaluator {
namespace {

namespace fs = std::filesystem;

TEST(SourceCheck, RawTextLimits) {
  EXPECT_FALSE(check_source("#include <math.h>\nvoid f(float *x) { x[0] = expf(x[0]); }\n"));
  EXPECT_EQ(check_source(std::string("int x;\0", 7))->rule, "binary-source");
  EXPECT_EQ(check_source(std::string(300 * 1024, ' '))->rule, "source-size");
}

// The source rules read clang's own preprocessing of the source, in the evaluation sandbox.
class PreprocessedCheck : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    home_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-ppcheck-");
    tools_ = find_toolchain(load_board(EOK_SOURCE_DIR, "k1"));
    sandbox_ = std::make_unique<sandbox::Sandbox>(sandbox_system_paths(tools_));
    compiler_ = std::make_unique<ClangCompiler>(tools_, *sandbox_, home_->path(), home_->path());
  }
  static void TearDownTestSuite() {
    compiler_.reset();
    sandbox_.reset();
    home_.reset();
  }

  static Preprocessed pp(const std::string& source) {
    CompileRequest req;
    req.source = source;
    req.march = "rv64gcv";
    req.prelude = "#include <stddef.h>\nvoid k(float *x, size_t n);\n";
    return compiler_->preprocess(req);
  }
  // The rule the source breaks, "(none)", or "(does not preprocess)".
  static std::string rule(const std::string& source) {
    Preprocessed p = pp(source);
    if (!p.ok) return "(does not preprocess)";
    auto v = check_preprocessed(p, "/eval/kernel.c");
    return v ? v->rule : "(none)";
  }

  static std::unique_ptr<TempDir> home_;
  static Toolchain tools_;
  static std::unique_ptr<sandbox::Sandbox> sandbox_;
  static std::unique_ptr<ClangCompiler> compiler_;
};
std::unique_ptr<TempDir> PreprocessedCheck::home_;
Toolchain PreprocessedCheck::tools_;
std::unique_ptr<sandbox::Sandbox> PreprocessedCheck::sandbox_;
std::unique_ptr<ClangCompiler> PreprocessedCheck::compiler_;

TEST_F(PreprocessedCheck, AllowsOrdinaryKernels) {
  EXPECT_EQ(rule("#include <riscv_vector.h>\n#include <math.h>\n#include <string.h>\n"
                 "void k(float *x, size_t n) { for (size_t i = 0; i < n; ++i) x[i] = expf(x[i]); }\n"),
            "(none)");
  // Words in comments and strings are not code.
  EXPECT_EQ(rule("// asm is not used here\n/* __asm__ constructor */ const char *s = \"asm ifunc\"; int plasma;\n"
                 "void k(float *x, size_t n) { (void)x; (void)n; }\n"),
            "(none)");
}

TEST_F(PreprocessedCheck, IncludesOutsideTheAllowListInEverySpelling) {
  for (const char* src : {"#include <stdio.h>\n", "  #  include <unistd.h>\n", "%:include <stdlib.h>\n",
                          "#define H <sys/mman.h>\n#include H\n", "#inc\\\nlude <signal.h>\n",
                          "#define P(x) #x\n#include P(stdio.h)\n", "#include_next <stdio.h>\n"}) {
    const std::string r = rule(src);
    EXPECT_TRUE(r == "forbidden-include" || r == "(does not preprocess)") << src << " -> " << r;
  }
  // Host files are simply not there: the sandbox shows the toolchain and nothing else.
  EXPECT_EQ(rule("#include \"/etc/passwd\"\n"), "(does not preprocess)");
  EXPECT_EQ(rule("#include \"/proc/self/environ\"\n"), "(does not preprocess)");
  Preprocessed probe =
      pp("#if __has_include(</etc/passwd>) || __has_include(</root/.bashrc>)\nint host_visible = 1;\n#endif\n");
  ASSERT_TRUE(probe.ok);
  EXPECT_EQ(probe.text.find("host_visible"), std::string::npos);
}

TEST_F(PreprocessedCheck, EmbeddingAFileIsRefused) {
  // Only toolchain files are visible, and reading one into the program is refused all the same.
  const std::string r = rule(
      "static const unsigned char d[] = {\n#embed </usr/riscv64-linux-gnu/include/stdio.h>\n};\n"
      "void k(float *x, size_t n) { x[0] = d[n]; }\n");
  EXPECT_EQ(r, "forbidden-embed");
  // A host file is not there to embed (on this machine /etc/shadow begins with "root": 114, 111, 111, 116).
  Preprocessed host = pp("static const unsigned char d[] = {\n#embed \"/etc/shadow\"\n};\n");
  EXPECT_EQ(host.text.find("114, 111, 111, 116"), std::string::npos);
}

TEST_F(PreprocessedCheck, InlineAssemblyHoweverSpelled) {
  EXPECT_EQ(rule("void k(float *x, size_t n) { __asm__ volatile(\"ecall\"); }\n"), "inline-asm");
  EXPECT_EQ(
      rule("#define GLUE(a, b) a##b\nvoid k(float *x, size_t n) { GLUE(as, m)(\".incbin \\\"/etc/passwd\\\"\"); }\n"),
      "inline-asm");
  EXPECT_EQ(rule("#define A __as\\\nm__\nvoid k(float *x, size_t n) { A(\"nop\"); }\n"), "inline-asm");
}

TEST_F(PreprocessedCheck, CodeOutsideTheCall) {
  EXPECT_EQ(rule("__attribute__((constructor)) static void g(void) {}\n"), "code-outside-call");
  EXPECT_EQ(rule("#define C(x) __attribute__((x))\nC(destructor) static void g(void) {}\n"), "code-outside-call");
  EXPECT_EQ(rule("static void *r(void) { return 0; }\nvoid k(float *x, size_t n) __attribute__((__ifunc__(\"r\")));\n"),
            "code-outside-call");
}

TEST_F(PreprocessedCheck, IdentityIgnoresLayoutButNotTokens) {
  const std::string a = "void k(float *x, size_t n) { x[0] = 1.0f; }\n";
  const std::string b = "/* c */ void   k(float *x,\n  size_t n)\n{\n  // one\n  x[0] = 1.0f;   }\n\n\n";
  EXPECT_EQ(kernel_identity(pp(a)), kernel_identity(pp(b)));
  EXPECT_NE(kernel_identity(pp(a)), kernel_identity(pp("void k(float *x, size_t n) { x[0] = 2.0f; }\n")));
  // A line continuation at the end of a // comment swallows the next line: a different program.
  const std::string c = "void k(float *x, size_t n) {\n  x[0] = 1.0f; // set \\\n  x[1] = 1.0f;\n}\n";
  const std::string d = "void k(float *x, size_t n) {\n  x[0] = 1.0f; // set\n  x[1] = 1.0f;\n}\n";
  EXPECT_NE(kernel_identity(pp(c)), kernel_identity(pp(d)));
  // Macros are expanded: two spellings of one program share the identity.
  EXPECT_EQ(kernel_identity(pp("#define V 1.0f\nvoid k(float *x, size_t n) { x[0] = V; }\n")), kernel_identity(pp(a)));
}

TEST(SymbolAllowList, LibmAndMemoryFunctionsOnly) {
  for (const char* ok : {"expf", "exp", "tanhf", "log1pf", "memcpy", "memset", "sqrtf", "__extendhfsf2"}) {
    EXPECT_TRUE(symbol_allowed(ok)) << ok;
  }
  for (const char* bad : {"fopen", "system", "open", "syscall", "malloc", "printf", "mmap", "exit", "f"}) {
    EXPECT_FALSE(symbol_allowed(bad)) << bad;
  }
}

std::string rule_of(const ObjectVerdict& v) {
  return v.violation ? v.violation->rule : "(none)";
}

// Object checks on what clang really produces.
class ObjectCheck : public ::testing::Test {
 protected:
  std::string compile(const std::string& source, const std::string& lang = "c") {
    TempDir dir(fs::temp_directory_path(), "eok-objcheck-");
    write_file_atomic(dir.path() / ("k." + lang), source);
    ProcessSpec spec;
    spec.argv = {
        "clang-22", "--target=riscv64-linux-gnu", "-march=rv64gcv", "-O2", "-c", (dir.path() / ("k." + lang)).string(),
        "-o",       (dir.path() / "k.o").string()};
    ProcessResult r = run_process(spec);
    EXPECT_TRUE(r.ok()) << r.err;
    return r.ok() ? read_file(dir.path() / "k.o") : "";
  }
};

TEST_F(ObjectCheck, CleanKernelPassesAndDefinesItsEntry) {
  auto v = check_object(
      compile("#include <math.h>\nvoid k(float *x, long n) { for (long i = 0; i < n; ++i) x[i] = expf(x[i]); }\n"),
      "k");
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
  EXPECT_EQ(rule_of(check_object(compile(".text\n.globl k\nk:\n frrm a0\n csrr a1, vlenb\n ret\n", "s"), "k")),
            "(none)");
}

TEST_F(ObjectCheck, SectionsByNameAndFlags) {
  // Data in a section named like code: the linker would map it into executable .text.
  EXPECT_EQ(
      rule_of(check_object(compile("__attribute__((section(\".text.evil\"), used)) static const unsigned int w[] = "
                                   "{0x00000073u};\nvoid k(void) {}\n"),
                           "k")),
      "forbidden-section");
  EXPECT_EQ(rule_of(check_object(compile(".section .text.w,\"awx\"\n.globl k\nk:\n ret\n", "s"), "k")),
            "forbidden-section");
  EXPECT_EQ(rule_of(check_object(compile(".section .rodata.x,\"ax\"\n.globl k\nk:\n ret\n", "s"), "k")),
            "forbidden-section");
  EXPECT_EQ(rule_of(check_object(compile("_Thread_local int t;\nint k(void) { return t; }\n"), "k")),
            "forbidden-section");
  EXPECT_EQ(
      rule_of(check_object(compile(".section .preinit_array,\"aw\"\n.quad 0\n.text\n.globl k\nk:\n ret\n", "s"), "k")),
      "forbidden-section");
}

TEST_F(ObjectCheck, IfuncResolversAreRejected) {
  EXPECT_EQ(rule_of(check_object(compile(".text\n.type k, %gnu_indirect_function\n.globl k\nk:\n ret\n", "s"), "k")),
            "code-outside-call");
}

TEST_F(ObjectCheck, ConstructorsAndHugeStaticDataAreRejected) {
  EXPECT_EQ(rule_of(check_object(compile("static void g(void) {}\n"
                                         "__attribute__((section(\".init_array\"), used)) static void (*p)(void) = g;\n"
                                         "void k(void) {}\n"),
                                 "k")),
            "forbidden-section");
  EXPECT_EQ(rule_of(check_object(
                compile("static char big[1u << 30];\nchar k(long i) { big[i] = 1; return big[i / 2]; }\n"), "k")),
            "static-data-size");
  // Read-only tables count too: shipping answers in .rodata is static data all the same.
  EXPECT_EQ(rule_of(check_object(
                compile("static const char big[32u << 20] = {1};\nchar k(long i) { return big[i]; }\n"), "k")),
            "static-data-size");
}

TEST_F(ObjectCheck, GarbageIsABadObject) {
  EXPECT_EQ(rule_of(check_object("not an elf file at all", "k")), "bad-object");
  EXPECT_EQ(rule_of(check_object("", "k")), "bad-object");
}

}  // namespace
}  // namespace eok::evaluator
