// Example changes as prompts show them: licence text and comment-only edits out, the changed lines with a
// little context, RVV C ranked above assembly.
#include <gtest/gtest.h>

#include "idea_pool/distiller.h"
#include "idea_pool/example_code.h"

namespace eok::idea_pool {
namespace {

const char* kDiffWithLicence =
    "diff --git a/kernel/riscv64/axpy_rvv.c b/kernel/riscv64/axpy_rvv.c\n"
    "--- a/kernel/riscv64/axpy_rvv.c\n"
    "+++ b/kernel/riscv64/axpy_rvv.c\n"
    "@@ -1,6 +1,6 @@\n"
    " /***************************************************************\n"
    "-Copyright (c) 2022, The OpenBLAS Project\n"
    "+Copyright (c) 2023, The OpenBLAS Project\n"
    " All rights reserved.\n"
    " Redistribution and use in source and binary forms, with or without\n"
    " ***************************************************************/\n"
    "@@ -40,12 +40,12 @@ int CNAME(BLASLONG n, FLOAT da, FLOAT *x)\n"
    " static int unused_one;\n"
    " static int unused_two;\n"
    " static int unused_three;\n"
    " static int unused_four;\n"
    "   for (; n > 0; n -= vl) {\n"
    "-    vl = __riscv_vsetvl_e32m1(n);\n"
    "+    vl = __riscv_vsetvl_e32m4(n);\n"
    "     vx = __riscv_vle32_v_f32m4(x, vl);\n"
    " after_one;\n"
    " after_two;\n"
    " after_three;\n"
    " after_four;\n"
    "@@ -80,3 +80,3 @@\n"
    "-  /* old comment */\n"
    "+  /* new comment */\n";

TEST(ExampleCode, KeepsTheChangedCodeWithContextAndDropsLicenceAndCommentOnlyHunks) {
  const std::string out = clean_example_code(kDiffWithLicence, 1500, 2);
  EXPECT_EQ(out.find("Copyright"), std::string::npos) << out;
  EXPECT_EQ(out.find("Redistribution"), std::string::npos) << out;
  EXPECT_EQ(out.find("comment"), std::string::npos) << "a hunk that only changes comments is noise:\n" << out;
  EXPECT_EQ(out.find("diff --git"), std::string::npos) << out;
  EXPECT_NE(out.find("-    vl = __riscv_vsetvl_e32m1(n);"), std::string::npos) << out;
  EXPECT_NE(out.find("+    vl = __riscv_vsetvl_e32m4(n);"), std::string::npos) << out;
  EXPECT_NE(out.find("unused_four"), std::string::npos) << "two lines of context before the change:\n" << out;
  EXPECT_EQ(out.find("unused_two"), std::string::npos) << "context is two lines:\n" << out;
  EXPECT_NE(out.find("after_one"), std::string::npos) << out;
  EXPECT_EQ(out.find("after_three"), std::string::npos) << out;
}

TEST(ExampleCode, StaysWithinItsBudgetByWholeHunks) {
  std::string diff;
  for (int h = 0; h < 10; ++h) {
    diff += "@@ -" + std::to_string(h * 10) + ",2 +" + std::to_string(h * 10) + ",2 @@\n-  x = " + std::to_string(h) +
            ";\n+  x = " + std::to_string(h + 1) + ";\n";
  }
  const std::string out = clean_example_code(diff, 100);
  EXPECT_LE(out.size(), 100u);
  EXPECT_NE(out.find("x = 1;"), std::string::npos);
  EXPECT_EQ(out.back(), '\n');
  EXPECT_EQ(out.find("[...]"), std::string::npos) << "whole hunks fit: none is cut";
  EXPECT_EQ(clean_example_code("@@ -1 +1 @@\n-// a\n+// b\n", 100), "") << "nothing but comments changed";
}

TEST(ExampleCode, RvvCIsMoreRelevantThanScalarCThanAssembly) {
  const CodeExample rvv{"1", "kernel/riscv64/axpy_rvv.c", "+    vl = __riscv_vsetvl_e32m4(n);\n"};
  const CodeExample scalar{"2", "kernel/arm/axpy.c", "+  for (i = 0; i < n; i += 4) y[i] += a * x[i];\n"};
  const CodeExample assembly{"3", "kernel/arm64/axpy_thunderx2.S", "+\tfmla\tv0.4s, v1.4s, v2.4s\n"};
  EXPECT_GT(example_relevance(rvv), example_relevance(scalar));
  EXPECT_GT(example_relevance(scalar), example_relevance(assembly));
  Thought t;
  t.examples = {assembly, scalar, rvv};
  const auto ordered = examples_by_relevance(t);
  ASSERT_EQ(ordered.size(), 3u);
  EXPECT_EQ(ordered[0]->commit, "1");
  EXPECT_EQ(ordered[2]->commit, "3");
}

TEST(ExampleCode, AnExtractivePoolIsRecognisedByItsSourceOrItsThoughts) {
  IdeaPool pool;
  pool.ideas.resize(1);
  pool.ideas[0].thoughts.resize(1);
  pool.ideas[0].thoughts[0].description = "Raise LMUL to 4 in the axpy loop.";
  EXPECT_FALSE(pool_is_extractive(pool));
  pool.source["distiller"] = "extractive";
  EXPECT_TRUE(pool_is_extractive(pool));
  pool.source.clear();
  pool.ideas[0].thoughts[0].description = std::string(kExtractivePrefix) + "Optimized dot kernels for CORTEXA57.";
  EXPECT_TRUE(pool_is_extractive(pool));
}

}  // namespace
}  // namespace eok::idea_pool
