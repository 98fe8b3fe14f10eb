#include "src/search/knobs.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "evaluator/task.h"
#include "src/common/error.h"
#include "src/common/subprocess.h"

namespace eok::search {
namespace {

namespace fs = std::filesystem;

// The message of the ConfigError that `f` throws, or "" (and a test failure) when it throws none.
std::string config_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a ConfigError";
  return "";
}

// `source` written at LMUL `from`, rescaled to `to`.
std::string rescaled(const std::string& source, const std::string& from, const std::string& to) {
  const std::vector<Knob> knobs = {{"LMUL", from, {from, to}}};
  return apply_knobs(source, knobs, {{"LMUL", to}});
}

std::string rescale_error(const std::string& source, const std::string& from, const std::string& to) {
  return config_error([&] { rescaled(source, from, to); });
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Compiles `source` as the evaluator compiles candidates; "" when it builds, else clang's report.
std::string compile_error(const std::string& source, const std::string& march, const std::string& label) {
  if (!find_on_path("clang-22")) return "clang-22 is not on PATH; install it (see README.md)";
  const fs::path dir = fs::temp_directory_path() / ("eok_knobs_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string file_name = label;
  for (char& c : file_name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '-';
  }
  const fs::path path = dir / (file_name + ".c");
  std::ofstream(path, std::ios::binary) << source;
  ProcessSpec spec;
  spec.argv = {"clang-22", "--target=riscv64-linux-gnu",       "-march=" + march, "-O3", "-c", path.string(),
               "-o",       (dir / (file_name + ".o")).string()};
  spec.limits.wall_seconds = 120;
  const ProcessResult r = run_process(spec);
  std::error_code ignored;
  fs::remove(path, ignored);
  fs::remove(dir / (file_name + ".o"), ignored);
  fs::remove(dir, ignored);  // only once empty
  return r.ok() ? "" : label + ": clang-22 " + r.describe() + "\n" + r.err;
}

// ------------------------------------------------------------------------------------------------
// Declarations

TEST(KnobParse, ReadsDeclarationsInOrder) {
  const std::string src =
      "// eok-knob: LMUL = 4 in {1, 2, 4, 8}\n"
      "//eok-knob:UNROLL=2 in{1,2,4}\n"
      "#ifndef UNROLL\n"
      "#define UNROLL 2  // strips per iteration\n"
      "#endif\n"
      "void f(float *x, size_t n) { vfloat32m4_t v = __riscv_vle32_v_f32m4(x, n); (void)v; }\n";
  const std::vector<Knob> knobs = parse_knobs(src);
  ASSERT_EQ(knobs.size(), 2u);
  EXPECT_EQ(knobs[0].name, "LMUL");
  EXPECT_TRUE(knobs[0].is_lmul());
  EXPECT_EQ(knobs[0].default_value, "4");
  EXPECT_EQ(knobs[0].values, (std::vector<std::string>{"1", "2", "4", "8"}));
  EXPECT_EQ(knobs[1].name, "UNROLL");
  EXPECT_FALSE(knobs[1].is_lmul());
  EXPECT_EQ(knobs[1].default_value, "2");
  EXPECT_EQ(knobs[1].values, (std::vector<std::string>{"1", "2", "4"}));
}

TEST(KnobParse, NoDeclarationsNoKnobs) {
  EXPECT_TRUE(parse_knobs("void f(void) {}\n").empty());
  // Mentions that are not a declaration: in a string, and later in a comment's prose.
  EXPECT_TRUE(parse_knobs("const char *s = \"// eok-knob: X = 1 in {1}\";\n"
                          "// see the eok-knob: lines of other kernels\n")
                  .empty());
}

TEST(KnobParse, AcceptsFractionalLmulAndGuardWithComments) {
  const std::string src =
      "// eok-knob: LMUL = 1 in {mf2, 1, 2}\n"
      "// eok-knob: KC = 256 in {64, 256}\n"
      "#  ifndef KC\n"
      "// the K block\n"
      "#  define KC 256\n"
      "#endif\n"
      "vfloat32m1_t g(vfloat32m1_t v, size_t vl) { return __riscv_vfadd_vv_f32m1(v, v, vl); }\n";
  const std::vector<Knob> knobs = parse_knobs(src);
  ASSERT_EQ(knobs.size(), 2u);
  EXPECT_EQ(knobs[0].values, (std::vector<std::string>{"mf2", "1", "2"}));
  EXPECT_EQ(knobs[1].name, "KC");
}

struct BadDeclaration {
  const char* source;
  const char* line;  // "line N:" the message must name
  const char* says;  // a fragment the message must hold
};

TEST(KnobParse, RejectsMalformedDeclarationsNamingTheLine) {
  const std::string body = "vfloat32m4_t f(vfloat32m4_t v, size_t vl) { return __riscv_vfadd_vv_f32m4(v, v, vl); }\n";
  const BadDeclaration cases[] = {
      {"// eok-knob LMUL = 4 in {4, 8}\n", "line 1:", "no ':'"},
      {"\n// eok-knob: LMUL in {4, 8}\n", "line 2:", "no '='"},
      {"// eok-knob: LMUL = in {4, 8}\n", "line 1:", "missing default"},
      {"// eok-knob: LMUL = 4 {4, 8}\n", "line 1:", "'in'"},
      {"// eok-knob: LMUL = 4 in 4, 8\n", "line 1:", "braces"},
      {"// eok-knob: LMUL = 4 in {4, 8\n", "line 1:", "closing '}'"},
      {"// eok-knob: LMUL = 4 in {4, 8} fast\n", "line 1:", "after the closing"},
      {"// eok-knob: 2X = 4 in {4, 8}\n", "line 1:", "not a C identifier"},
      {"// eok-knob: LMUL = 4 in {4, , 8}\n", "line 1:", "not a single number"},
      {"// eok-knob: LMUL = 4 in {4, 8, 4}\n", "line 1:", "listed twice"},
      {"\n\n// eok-knob: LMUL = 4 in {2, 8}\n", "line 3:", "not among its values"},
      {"// eok-knob: LMUL = 4 in {3, 4}\n", "line 1:", "use 1, 2, 4, 8, mf2, mf4 or mf8"},
      {"// eok-knob: LMUL = 4 in {m4, 4}\n", "line 1:", "is not an LMUL"},
      {"// eok-knob: LMUL = 4 in {4}\n// eok-knob: LMUL = 4 in {4, 8}\n", "line 2:", "declared twice"},
      {"/* eok-knob: LMUL = 4 in {4, 8} */\n", "line 1:", "// comment"},
      {"// eok-knob: N = 2 in {1, 2}\n", "line 1:", "no guard"},
      {"// eok-knob: N = 2 in {1, 2}\n#ifndef N\n#define N 3\n#endif\n", "line 3:", "make them agree"},
      {"// eok-knob: N = 2 in {1, 2}\n#ifndef N\nint x;\n#define N 2\n#endif\n", "line 2:", "must be followed"},
  };
  for (const auto& c : cases) {
    const std::string src = c.source + body;
    const std::string msg = config_error([&] { parse_knobs(src); });
    EXPECT_TRUE(contains(msg, c.line)) << c.source << " -> " << msg;
    EXPECT_TRUE(contains(msg, c.says)) << c.source << " -> " << msg;
  }
}

TEST(KnobParse, RejectsLmulValuesThatCannotApply) {
  const std::string src =
      "#include <riscv_vector.h>\n"
      "// eok-knob: LMUL = 4 in {2, 4, 8}\n"
      "void f(float *x, size_t vl) {\n"
      "  vfloat32m8_t w = __riscv_vle32_v_f32m8(x, vl);\n"
      "  __riscv_vse32_v_f32m8(x, w, vl);\n"
      "}\n";
  const std::string msg = config_error([&] { parse_knobs(src); });
  EXPECT_TRUE(contains(msg, "line 2: LMUL value 8")) << msg;
  EXPECT_TRUE(contains(msg, "line 4: 'vfloat32m8_t'")) << msg;
  EXPECT_TRUE(contains(msg, "m16")) << msg;
}

TEST(KnobParse, RejectsLmulKnobWithoutRvvNames) {
  const std::string msg =
      config_error([] { parse_knobs("// eok-knob: LMUL = 4 in {4, 8}\nint f(void) { return 0; }\n"); });
  EXPECT_TRUE(contains(msg, "line 1:")) << msg;
  EXPECT_TRUE(contains(msg, "no RVV type or intrinsic")) << msg;
}

// ------------------------------------------------------------------------------------------------
// LMUL rescaling

TEST(LmulRescale, TypesIntrinsicsAndVsetvl) {
  const std::string src =
      "size_t vlmax = __riscv_vsetvlmax_e32m4();\n"
      "size_t vl = __riscv_vsetvl_e16m2(n);\n"
      "vfloat32m4_t a = __riscv_vle32_v_f32m4(x, vl);\n"
      "vint16m2_t b = __riscv_vadd_vx_i16m2_tu(b, b, 1, vl);\n"
      "vuint8m1_t c = __riscv_vle8ff_v_u8m1(p, &vl, vl);\n"
      "vfloat32m4_t d = __riscv_vfadd_vv_f32m4_rm_tum(mask, a, a, a, __RISCV_FRM_RNE, vl);\n"
      "vfloat32m2x2_t t = __riscv_vlseg2e32_v_f32m2x2(x, vl);\n"
      "vfloat32m2_t t0 = __riscv_vget_v_f32m2x2_f32m2(t, 0);\n"
      "vbfloat16m2_t h = __riscv_vundefined_bf16m2();\n"
      "vfloat32m4_t s = __riscv_vlmul_ext_v_f32m1_f32m4(__riscv_vlmul_trunc_v_f32m4_f32m1(a));\n"
      "vfloat32m1_t g = __riscv_vget_v_f32m4_f32m1(a, 1);\n";
  EXPECT_EQ(rescaled(src, "4", "8"),
            "size_t vlmax = __riscv_vsetvlmax_e32m8();\n"
            "size_t vl = __riscv_vsetvl_e16m4(n);\n"
            "vfloat32m8_t a = __riscv_vle32_v_f32m8(x, vl);\n"
            "vint16m4_t b = __riscv_vadd_vx_i16m4_tu(b, b, 1, vl);\n"
            "vuint8m2_t c = __riscv_vle8ff_v_u8m2(p, &vl, vl);\n"
            "vfloat32m8_t d = __riscv_vfadd_vv_f32m8_rm_tum(mask, a, a, a, __RISCV_FRM_RNE, vl);\n"
            "vfloat32m4x2_t t = __riscv_vlseg2e32_v_f32m4x2(x, vl);\n"
            "vfloat32m4_t t0 = __riscv_vget_v_f32m4x2_f32m4(t, 0);\n"
            "vbfloat16m4_t h = __riscv_vundefined_bf16m4();\n"
            "vfloat32m8_t s = __riscv_vlmul_ext_v_f32m2_f32m8(__riscv_vlmul_trunc_v_f32m8_f32m2(a));\n"
            "vfloat32m2_t g = __riscv_vget_v_f32m8_f32m2(a, 1);\n");
}

TEST(LmulRescale, WideningPairsStayConsistent) {
  const std::string src =
      "vfloat16m2_t h = __riscv_vle16_v_f16m2(p, vl);\n"
      "vfloat32m4_t w = __riscv_vfwcvt_f_f_v_f32m4(h, vl);\n"
      "w = __riscv_vfwmacc_vv_f32m4(w, h, h, vl);\n"
      "vint32m4_t i = __riscv_vwadd_vx_i32m4(__riscv_vle16_v_i16m2(q, vl), 1, vl);\n"
      "vint32m4_t z = __riscv_vsext_vf2_i32m4(__riscv_vle16_v_i16m2(q, vl), vl);\n"
      "vfloat16m2_t back = __riscv_vfncvt_f_f_w_f16m2(w, vl);\n";
  EXPECT_EQ(rescaled(src, "4", "8"),
            "vfloat16m4_t h = __riscv_vle16_v_f16m4(p, vl);\n"
            "vfloat32m8_t w = __riscv_vfwcvt_f_f_v_f32m8(h, vl);\n"
            "w = __riscv_vfwmacc_vv_f32m8(w, h, h, vl);\n"
            "vint32m8_t i = __riscv_vwadd_vx_i32m8(__riscv_vle16_v_i16m4(q, vl), 1, vl);\n"
            "vint32m8_t z = __riscv_vsext_vf2_i32m8(__riscv_vle16_v_i16m4(q, vl), vl);\n"
            "vfloat16m4_t back = __riscv_vfncvt_f_f_w_f16m4(w, vl);\n");
  EXPECT_EQ(rescaled(src, "4", "1"),
            "vfloat16mf2_t h = __riscv_vle16_v_f16mf2(p, vl);\n"
            "vfloat32m1_t w = __riscv_vfwcvt_f_f_v_f32m1(h, vl);\n"
            "w = __riscv_vfwmacc_vv_f32m1(w, h, h, vl);\n"
            "vint32m1_t i = __riscv_vwadd_vx_i32m1(__riscv_vle16_v_i16mf2(q, vl), 1, vl);\n"
            "vint32m1_t z = __riscv_vsext_vf2_i32m1(__riscv_vle16_v_i16mf2(q, vl), vl);\n"
            "vfloat16mf2_t back = __riscv_vfncvt_f_f_w_f16mf2(w, vl);\n");
}

TEST(LmulRescale, MasksScaleInversely) {
  const std::string src =
      "vbool8_t m = __riscv_vmflt_vf_f32m4_b8(a, 0.0f, vl);\n"
      "vbool16_t k = __riscv_vmseq_vx_i16m1_b16(b, 0, vl);\n"
      "m = __riscv_vmand_mm_b8(m, __riscv_vmnot_m_b8(m, vl), vl);\n"
      "long c = __riscv_vcpop_m_b8(m, vl);\n"
      "a = __riscv_vfadd_vv_f32m4_mu(m, a, a, a, vl);\n"
      "vbool8_t l = __riscv_vlm_v_b8(bits, vl);\n";
  EXPECT_EQ(rescaled(src, "4", "8"),
            "vbool4_t m = __riscv_vmflt_vf_f32m8_b4(a, 0.0f, vl);\n"
            "vbool8_t k = __riscv_vmseq_vx_i16m2_b8(b, 0, vl);\n"
            "m = __riscv_vmand_mm_b4(m, __riscv_vmnot_m_b4(m, vl), vl);\n"
            "long c = __riscv_vcpop_m_b4(m, vl);\n"
            "a = __riscv_vfadd_vv_f32m8_mu(m, a, a, a, vl);\n"
            "vbool4_t l = __riscv_vlm_v_b4(bits, vl);\n");
  EXPECT_EQ(rescaled(src, "4", "1"),
            "vbool32_t m = __riscv_vmflt_vf_f32m1_b32(a, 0.0f, vl);\n"
            "vbool64_t k = __riscv_vmseq_vx_i16mf4_b64(b, 0, vl);\n"
            "m = __riscv_vmand_mm_b32(m, __riscv_vmnot_m_b32(m, vl), vl);\n"
            "long c = __riscv_vcpop_m_b32(m, vl);\n"
            "a = __riscv_vfadd_vv_f32m1_mu(m, a, a, a, vl);\n"
            "vbool32_t l = __riscv_vlm_v_b32(bits, vl);\n");
}

TEST(LmulRescale, ReinterpretCasts) {
  const std::string src =
      "vint32m4_t b = __riscv_vreinterpret_v_f32m4_i32m4(a);\n"
      "vuint16m2_t u = __riscv_vreinterpret_v_i32m2_u16m2(__riscv_vget_v_i32m4_i32m2(b, 0));\n"
      "vbool8_t m = __riscv_vreinterpret_v_i32m1_b8(bits);\n";
  EXPECT_EQ(rescaled(src, "4", "8"),
            "vint32m8_t b = __riscv_vreinterpret_v_f32m8_i32m8(a);\n"
            "vuint16m4_t u = __riscv_vreinterpret_v_i32m4_u16m4(__riscv_vget_v_i32m8_i32m4(b, 0));\n"
            // a mask reinterpret always pairs the mask with an m1 register
            "vbool4_t m = __riscv_vreinterpret_v_i32m1_b4(bits);\n");
}

TEST(LmulRescale, ReductionScalarsStayM1) {
  const std::string src =
      "float mx = __riscv_vfmv_f_s_f32m1_f32(\n"
      "    __riscv_vfredmax_vs_f32m4_f32m1(v, __riscv_vfmv_s_f_f32m1(-INFINITY, 1), vl));\n"
      "int s = __riscv_vmv_x_s_i32m1_i32(__riscv_vredsum_vs_i32m2_i32m1_tu(acc, w, __riscv_vmv_s_x_i32m1(0, 1), vl));\n"
      "float ws = __riscv_vfmv_f(__riscv_vfwredusum_vs_f16m4_f32m1(h, __riscv_vfmv_s_f_f32m1(0.0f, 1), vl));\n"
      // m1 scalar moves on data vectors scale with them
      "int last = __riscv_vmv_x_s_i32m1_i32(carry);\n"
      "carry = __riscv_vmv_s_x_i32m1_tu(carry, 5, 1);\n"
      "float first = __riscv_vfmv_f_s_f32m4_f32(v);\n";
  EXPECT_EQ(
      rescaled(src, "4", "8"),
      "float mx = __riscv_vfmv_f_s_f32m1_f32(\n"
      "    __riscv_vfredmax_vs_f32m8_f32m1(v, __riscv_vfmv_s_f_f32m1(-INFINITY, 1), vl));\n"
      "int s = __riscv_vmv_x_s_i32m1_i32(__riscv_vredsum_vs_i32m4_i32m1_tu(acc, w, __riscv_vmv_s_x_i32m1(0, 1), vl));\n"
      "float ws = __riscv_vfmv_f(__riscv_vfwredusum_vs_f16m8_f32m1(h, __riscv_vfmv_s_f_f32m1(0.0f, 1), vl));\n"
      "int last = __riscv_vmv_x_s_i32m2_i32(carry);\n"
      "carry = __riscv_vmv_s_x_i32m2_tu(carry, 5, 1);\n"
      "float first = __riscv_vfmv_f_s_f32m8_f32(v);\n");
  // down to LMUL 1 the reduction source shrinks while its scalar stays m1
  const std::string down = rescaled(src.substr(0, src.find("int last")), "4", "1");
  EXPECT_TRUE(contains(down, "__riscv_vfredmax_vs_f32m1_f32m1(v, __riscv_vfmv_s_f_f32m1(")) << down;
  EXPECT_TRUE(contains(down, "__riscv_vredsum_vs_i32mf2_i32m1_tu(")) << down;
}

TEST(LmulRescale, FractionalResults) {
  const std::string src =
      "size_t vl = __riscv_vsetvl_e32m1(n);\n"
      "vfloat32m1_t a = __riscv_vle32_v_f32m1(x, vl);\n"
      "vuint8m1_t b = __riscv_vle8_v_u8m1(p, vl);\n"
      "vbool32_t m = __riscv_vmfgt_vf_f32m1_b32(a, 0.0f, vl);\n";
  EXPECT_EQ(rescaled(src, "1", "mf2"),
            "size_t vl = __riscv_vsetvl_e32mf2(n);\n"
            "vfloat32mf2_t a = __riscv_vle32_v_f32mf2(x, vl);\n"
            "vuint8mf2_t b = __riscv_vle8_v_u8mf2(p, vl);\n"
            "vbool64_t m = __riscv_vmfgt_vf_f32mf2_b64(a, 0.0f, vl);\n");
  // from a fractional default back up
  EXPECT_EQ(rescaled("vuint8mf4_t b = __riscv_vle8_v_u8mf4(p, vl);\n", "mf4", "2"),
            "vuint8m2_t b = __riscv_vle8_v_u8m2(p, vl);\n");
  EXPECT_EQ(rescaled("vint8mf2_t b = __riscv_vle8_v_i8mf2(p, vl);\n", "mf2", "mf8"),
            "vint8mf8_t b = __riscv_vle8_v_i8mf8(p, vl);\n");
}

TEST(LmulRescale, RoundTripRestoresTheSource) {
  const std::string src =
      "vfloat16m2_t h = __riscv_vle16_v_f16m2(p, vl);\n"
      "vfloat32m4_t w = __riscv_vfwcvt_f_f_v_f32m4(h, vl);\n"
      "vbool8_t m = __riscv_vmflt_vf_f32m4_b8(w, 0.0f, vl);\n";
  EXPECT_EQ(rescaled(rescaled(src, "4", "1"), "1", "4"), src);
  EXPECT_EQ(rescaled(rescaled(src, "4", "8"), "8", "4"), src);
}

TEST(LmulRescale, RefusesIllegalResultsNamingTheLine) {
  struct Case {
    std::string source, from, to, says;
  };
  const std::vector<Case> cases = {
      {"\nvfloat32m8_t a = __riscv_vle32_v_f32m8(x, vl);\n", "4", "8", "m16"},
      {"\nvint8mf8_t a;\n", "1", "mf2", "mf16"},
      {"\nvfloat32m1_t a;\n", "4", "mf2", "LMUL must be at least"},  // f32 at mf8
      {"\nvint64m1_t a;\n", "1", "mf2", "SEW 64 at LMUL mf2"},
      {"\nsize_t vl = __riscv_vsetvl_e64m1(n);\n", "2", "1", "SEW 64"},
      {"\nvbool64_t m;\n", "1", "mf2", "vbool128"},
      {"\nvbool1_t m;\n", "1", "2", "vbool1/2"},
      {"\nvfloat32m4x2_t t;\n", "4", "8", "more than 8 registers"},
      {"\nvuint16m4_t n = __riscv_vnsrl_wx_u16m4(w, 0, vl);\n", "4", "8", "twice its LMUL"},
      {"\nvint8m4_t g = __riscv_vloxei16_v_i8m4(p, idx, vl);\n", "4", "8", "offsets would need EMUL m16"},
      {"\nvfloat32m1_t g = __riscv_vget_v_f32m2_f32m1(a, 0);\n", "2", "1", "no fractional LMUL"},
      {"\nvbool2_t m = __riscv_vreinterpret_v_i16m1_b2(r);\n", "1", "2", "vbool2..vbool64"},
  };
  for (const auto& c : cases) {
    const std::string msg = rescale_error(c.source, c.from, c.to);
    EXPECT_TRUE(contains(msg, "line 2:")) << c.source << " -> " << msg;
    EXPECT_TRUE(contains(msg, c.says)) << c.source << " -> " << msg;
    EXPECT_TRUE(contains(msg, "LMUL=" + c.to)) << msg;
  }
}

TEST(LmulRescale, LeavesEverythingButRvvNamesAlone) {
  const std::string src =
      "#include <riscv_vector.h>\n"
      "// vfloat32m4_t in a comment stays, and so does __riscv_vle32_v_f32m4\n"
      "/* vint32m4_t */\n"
      "static const char *names = \"vfloat32m4_t __riscv_vle32_v_f32m4\";\n"
      "static const char c = 'm';\n"
      "int m4 = 4, f32m4 = 1, e32m4 = 2, b8 = 3, vfloat32m4 = 5, vfloat32m4_tile = 6, VFLOAT32M4_T = 7;\n"
      "int my_vfloat32m4_t = 8, vint32m4_t_count = 9, vbool8 = 10;\n"
      "float h = 0x1.8p23f + 1e4f, g = 1e+4f;\n"
      "void riscv_vle32_v_f32m4(void);\n"
      "int xlen = __riscv_xlen + __riscv_v_elen;\n"
      "#define TILE_M4(v) __riscv_vfadd_vv_f32m4(v, v, vl)  // macro bodies are code\n";
  EXPECT_EQ(rescaled(src, "4", "8"),
            "#include <riscv_vector.h>\n"
            "// vfloat32m4_t in a comment stays, and so does __riscv_vle32_v_f32m4\n"
            "/* vint32m4_t */\n"
            "static const char *names = \"vfloat32m4_t __riscv_vle32_v_f32m4\";\n"
            "static const char c = 'm';\n"
            "int m4 = 4, f32m4 = 1, e32m4 = 2, b8 = 3, vfloat32m4 = 5, vfloat32m4_tile = 6, VFLOAT32M4_T = 7;\n"
            "int my_vfloat32m4_t = 8, vint32m4_t_count = 9, vbool8 = 10;\n"
            "float h = 0x1.8p23f + 1e4f, g = 1e+4f;\n"
            "void riscv_vle32_v_f32m4(void);\n"
            "int xlen = __riscv_xlen + __riscv_v_elen;\n"
            "#define TILE_M4(v) __riscv_vfadd_vv_f32m8(v, v, vl)  // macro bodies are code\n");
}

// One function with widening and narrowing pairs, masks, reinterprets, a segment tuple and an inline
// reduction, written at LMUL 2: every declared LMUL must give C that compiles.
TEST(LmulRescale, RescaledMixedWidthCodeCompiles) {
  const std::string src = R"(#include <riscv_vector.h>
#include <stddef.h>
// eok-knob: LMUL = 2 in {mf2, 1, 2, 4, 8}
float mixed(const _Float16 *h, const _Float16 *pairs, float *out, _Float16 *half, size_t n) {
  float total = 0.0f;
  for (size_t vl; n > 0; n -= vl, h += vl, pairs += 2 * vl, out += vl, half += vl) {
    vl = __riscv_vsetvl_e16m1(n);
    vfloat16m1_t x = __riscv_vle16_v_f16m1(h, vl);
    vfloat32m2_t w = __riscv_vfwcvt_f_f_v_f32m2(x, vl);
    vbool16_t neg = __riscv_vmflt_vf_f32m2_b16(w, 0.0f, vl);
    w = __riscv_vfneg_v_f32m2_mu(neg, w, w, vl);
    vint32m2_t bits = __riscv_vand_vx_i32m2(__riscv_vreinterpret_v_f32m2_i32m2(w), 0x7fffffff, vl);
    vfloat16m1x2_t p = __riscv_vlseg2e16_v_f16m1x2(pairs, vl);
    vfloat16m1_t s = __riscv_vfadd_vv_f16m1(__riscv_vget_v_f16m1x2_f16m1(p, 0), __riscv_vget_v_f16m1x2_f16m1(p, 1), vl);
    w = __riscv_vfwadd_wv_f32m2(__riscv_vreinterpret_v_i32m2_f32m2(bits), s, vl);
    __riscv_vse32_v_f32m2(out, w, vl);
    __riscv_vse16_v_f16m1(half, __riscv_vfncvt_f_f_w_f16m1(w, vl), vl);
    total += __riscv_vfmv_f_s_f32m1_f32(__riscv_vfredusum_vs_f32m2_f32m1(w, __riscv_vfmv_s_f_f32m1(0.0f, 1), vl));
  }
  return total;
}
)";
  const std::vector<Knob> knobs = parse_knobs(src);
  ASSERT_EQ(knobs.size(), 1u);
  for (const auto& value : knobs[0].values) {
    const std::string variant = apply_knobs(src, knobs, {{"LMUL", value}});
    EXPECT_EQ(compile_error(variant, "rv64gcv_zfh_zvfh", "mixed LMUL=" + value), "") << variant;
  }
}

TEST(LmulRescale, DefaultValueReturnsTheSourceUnchanged) {
  const std::string src = "vfloat32m4_t a = __riscv_vle32_v_f32m4(x, vl);\n";
  const std::vector<Knob> knobs = {{"LMUL", "4", {"2", "4"}}};
  EXPECT_EQ(apply_knobs(src, knobs, {}), src);
  EXPECT_EQ(apply_knobs(src, knobs, {{"LMUL", "4"}}), src);
}

// ------------------------------------------------------------------------------------------------
// Define knobs, errors, describe()

const char* kThreeKnobs =
    "// eok-knob: LMUL = 4 in {2, 4, 8}\n"
    "// eok-knob: UNROLL = 2 in {1, 2, 4}\n"
    "// eok-knob: KC = 256 in {64, 256}\n"
    "#ifndef UNROLL\n#define UNROLL 2\n#endif\n"
    "#ifndef KC\n#define KC 256\n#endif\n"
    "vfloat32m4_t a = __riscv_vle32_v_f32m4(x, vl);\n";

TEST(DefineKnobs, PrependDefinesInDeclarationOrder) {
  const std::string src = kThreeKnobs;
  const std::vector<Knob> knobs = parse_knobs(src);
  EXPECT_EQ(apply_knobs(src, knobs, {{"UNROLL", "4"}}), "#define UNROLL 4\n" + src);
  EXPECT_EQ(apply_knobs(src, knobs, {{"KC", "64"}, {"UNROLL", "1"}}), "#define UNROLL 1\n#define KC 64\n" + src);
  EXPECT_EQ(apply_knobs(src, knobs, {{"UNROLL", "2"}}), src);  // the default needs no define
  const std::string both = apply_knobs(src, knobs, {{"UNROLL", "1"}, {"LMUL", "8"}});
  EXPECT_TRUE(both.starts_with("#define UNROLL 1\n// eok-knob: LMUL")) << both;
  EXPECT_TRUE(contains(both, "vfloat32m8_t a = __riscv_vle32_v_f32m8(x, vl);")) << both;
}

TEST(DefineKnobs, RejectUndeclaredNamesAndValues) {
  const std::string src = kThreeKnobs;
  const std::vector<Knob> knobs = parse_knobs(src);
  std::string msg = config_error([&] { apply_knobs(src, knobs, {{"MR", "2"}}); });
  EXPECT_TRUE(contains(msg, "unknown knob 'MR'")) << msg;
  EXPECT_TRUE(contains(msg, "LMUL, UNROLL, KC")) << msg;
  msg = config_error([&] { apply_knobs(src, knobs, {{"UNROLL", "3"}}); });
  EXPECT_TRUE(contains(msg, "no value '3'")) << msg;
  EXPECT_TRUE(contains(msg, "{1, 2, 4}")) << msg;
  msg = config_error([&] { apply_knobs(src, knobs, {{"LMUL", "1"}}); });
  EXPECT_TRUE(contains(msg, "{2, 4, 8}")) << msg;
}

TEST(Describe, ListsTheGivenValuesByName) {
  EXPECT_EQ(describe({}), "");
  EXPECT_EQ(describe({{"UNROLL", "1"}, {"LMUL", "8"}}), "LMUL=8 UNROLL=1");
  EXPECT_EQ(describe({{"KC", "64"}}), "KC=64");
}

// ------------------------------------------------------------------------------------------------
// Every kernel of the catalog: each declared value, alone and in a few combinations, compiles as the
// evaluator compiles candidates.

const fs::path kKernels = fs::path(EOK_SOURCE_DIR) / "kernels";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The variants to compile: every value of every knob alone, then for each pair of knobs the four
// corners of their first and last values, and all knobs at their first and at their last values.
std::vector<KnobValues> variants_to_compile(const std::vector<Knob>& knobs) {
  std::vector<KnobValues> out;
  std::set<KnobValues> seen;
  auto add = [&](KnobValues v) {
    if (seen.insert(v).second) out.push_back(std::move(v));
  };
  for (const auto& k : knobs) {
    for (const auto& v : k.values) add({{k.name, v}});
  }
  for (size_t a = 0; a < knobs.size(); ++a) {
    for (size_t b = a + 1; b < knobs.size(); ++b) {
      for (const auto& va : {knobs[a].values.front(), knobs[a].values.back()}) {
        for (const auto& vb : {knobs[b].values.front(), knobs[b].values.back()})
          add({{knobs[a].name, va}, {knobs[b].name, vb}});
      }
    }
  }
  KnobValues first, last;
  for (const auto& k : knobs) {
    first[k.name] = k.values.front();
    last[k.name] = k.values.back();
  }
  add(first);
  add(last);
  return out;
}

class KernelKnobs : public ::testing::TestWithParam<std::string> {};

TEST_P(KernelKnobs, EveryDeclaredVariantCompiles) {
  const evaluator::Task task = evaluator::load_task(kKernels / GetParam());
  const std::string source = read_file(task.ker0_path());
  const std::vector<Knob> knobs = parse_knobs(source);
  EXPECT_EQ(apply_knobs(source, knobs, {}), source);
  if (knobs.empty()) GTEST_SKIP() << GetParam() << " declares no knobs";
  for (const KnobValues& values : variants_to_compile(knobs)) {
    const std::string label = GetParam() + " " + describe(values);
    EXPECT_EQ(compile_error(apply_knobs(source, knobs, values), task.march, label), "");
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, KernelKnobs, ::testing::ValuesIn(evaluator::list_task_ids(kKernels)),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace eok::search
