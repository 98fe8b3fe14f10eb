// Checks the committed X60 cost table against the measured rvv-bench figures it claims to copy, plus spot
// checks of known values and of the loader's error handling.
#include "evaluator/cost_model/x60_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "support/shared_data.h"
#include "support/x60_data.h"

namespace eok::cost {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using testing::x60::committed_table;
using testing::x60::read_json;
using testing::x60::table;
using testing::x60::throughput_path;

riscv::VType vt(unsigned sew, int lmul_log2) {
  riscv::VType v;
  v.sew = sew;
  v.lmul_log2 = lmul_log2;
  v.ta = v.ma = true;
  return v;
}

// "e32m4" -> {32, 2}; "e16mf2" -> {16, -1}.
riscv::VType vt_from_key(const std::string& key) {
  const size_t m = key.find('m');
  const unsigned sew = static_cast<unsigned>(std::stoul(key.substr(1, m - 1)));
  int lg = 0;
  if (key.compare(m, 2, "mf") == 0) {
    for (int n = std::stoi(key.substr(m + 2)); n > 1; n /= 2) --lg;
  } else {
    for (int n = std::stoi(key.substr(m + 1)); n > 1; n /= 2) ++lg;
  }
  return vt(sew, lg);
}

// The shared measured table, parsed once; nullptr when the shared data directory is absent.
const json* measured_source() {
  static const json doc = fs::exists(throughput_path()) ? read_json(throughput_path()) : json();
  return doc.is_null() ? nullptr : &doc;
}

// A measured cell ("38.43", "" when not measured) parsed the way the generator reads it.
std::optional<double> cell(const json& row, const std::string& key) {
  auto it = row.find(key);
  if (it == row.end() || it->get<std::string>().empty()) return std::nullopt;
  return std::stod(it->get<std::string>());
}

class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    path_ = fs::temp_directory_path() /
            ("eok-x60-table-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++) + ".json");
    std::ofstream(path_) << text;
  }
  ~TempFile() { fs::remove(path_); }
  const fs::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

// ---------------------------------------------------------------------------------------------------
// Against the measured source

TEST(X60TableSharedData, EveryVectorFigureEqualsItsMeasuredCell) {
  SKIP_WITHOUT_SHARED_DATA(throughput_path());  // the generator cross-check
  const json& measured = *measured_source();
  const json& committed = committed_table();
  size_t checked = 0;
  for (const auto& [mn, e] : committed.at("vector").items()) {
    const std::string source = e.at("source").get<std::string>();
    if (source == "llvm") continue;
    SCOPED_TRACE(mn);
    ASSERT_TRUE(source == "tblMaa" || source == "tblMau") << source;
    const std::string row = e.at("row").get<std::string>();
    EXPECT_EQ(row.substr(0, row.find(' ')), mn);
    ASSERT_TRUE(measured.at(source).contains(row)) << row;
    const json& mrow = measured.at(source).at(row);
    // Integer rows come from tblMaa; tblMau only when tblMaa has nothing for the row.
    if (source == "tblMau") {
      for (const auto& [k, v] : measured.at("tblMaa").at(row).items()) EXPECT_EQ(v, "") << row << " " << k;
    }

    // Both ways: every table figure equals its cell, and every filled cell is in the table. Derived cells
    // (a measured neighbour's figure, where this row is empty) are checked by EveryDerivedCellNamesItsNeighbour.
    const json empty = json::object();
    const json& derived = e.contains("derived") ? e.at("derived") : empty;
    const json& masked_derived = e.contains("masked_derived") ? e.at("masked_derived") : empty;
    const json& rt = e.at("rthroughput");
    for (const auto& [key, v] : rt.items()) {
      if (derived.contains(key)) {
        EXPECT_FALSE(cell(mrow, key).has_value()) << key << " is measured but marked derived";
        continue;
      }
      auto m = cell(mrow, key);
      ASSERT_TRUE(m.has_value()) << key << " is not measured";
      EXPECT_EQ(v.get<double>(), *m) << key;
      auto got = table().vector(mn, false, vt_from_key(key));
      ASSERT_TRUE(got.has_value()) << key;
      EXPECT_EQ(got->rthroughput, *m) << key;
      EXPECT_TRUE(got->measured);
      ++checked;
    }
    for (const auto& [key, v] : mrow.items()) {
      if (!v.get<std::string>().empty()) {
        EXPECT_TRUE(rt.contains(key)) << key << " measured but missing";
      }
    }

    const std::string mrow_text = row + ",v0.t";
    const json& masked_row = measured.at(source).contains(mrow_text) ? measured.at(source).at(mrow_text) : empty;
    const json& mrt = e.contains("masked_rthroughput") ? e.at("masked_rthroughput") : empty;
    for (const auto& [key, v] : mrt.items()) {
      if (masked_derived.contains(key)) {
        EXPECT_FALSE(cell(masked_row, key).has_value()) << key << " masked is measured but marked derived";
        continue;
      }
      auto m = cell(masked_row, key);
      ASSERT_TRUE(m.has_value()) << key << " masked is not measured";
      EXPECT_EQ(v.get<double>(), *m) << key;
      auto got = table().vector(mn, true, vt_from_key(key));
      ASSERT_TRUE(got.has_value()) << key;
      EXPECT_EQ(got->rthroughput, *m) << key;
      ++checked;
    }
    for (const auto& [key, v] : masked_row.items()) {
      if (!v.get<std::string>().empty()) {
        EXPECT_TRUE(mrt.contains(key)) << key << " masked measured but missing";
      }
    }
  }
  EXPECT_GT(checked, 10000u);
}

TEST(X60TableSharedData, EveryMeasuredVectorInstructionIsInTheTable) {
  SKIP_WITHOUT_SHARED_DATA(throughput_path());  // the generator cross-check
  const json& measured = *measured_source();
  const json& committed = committed_table();
  for (const auto& [row, cells] : measured.at("tblMaa").items()) {
    if (row[0] != 'v') continue;
    const std::string mn = row.substr(0, row.find(' '));
    EXPECT_TRUE(committed.at("vector").contains(mn)) << mn;
  }
}

TEST(X60TableSharedData, ScalarMeasuredFiguresEqualTheirCell) {
  SKIP_WITHOUT_SHARED_DATA(throughput_path());  // the generator cross-check
  const json& measured = *measured_source();
  const json& committed = committed_table();
  int n = 0;
  for (const auto& [mn, e] : committed.at("scalar").items()) {
    if (!e.at("measured").get<bool>() || e.contains("derived")) continue;
    // vsetvli is measured in the memset kernels, not in this table (x60_core_figures_test.cc).
    if (e.at("source").get<std::string>() == "memset") continue;
    SCOPED_TRACE(mn);
    const json& row = measured.at(e.at("source").get<std::string>()).at(e.at("row").get<std::string>());
    auto m = cell(row, e.at("vtype").get<std::string>());
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(e.at("rthroughput").get<double>(), *m);
    double least = std::numeric_limits<double>::infinity();
    for (const auto& [key, v] : row.items()) {
      if (auto c = cell(row, key)) least = std::min(least, *c);
    }
    EXPECT_EQ(*m, least) << "the scalar figure is the row's smallest";
    ++n;
  }
  EXPECT_EQ(n, 2);  // add, mul
}

// ---------------------------------------------------------------------------------------------------
// Derived cells: each names the measured neighbour whose figure it carries ("<rule>:<mnemonic> <vtype>")

TEST(X60TableDerived, EveryDerivedCellNamesItsNeighbour) {
  const json& committed = committed_table();
  size_t checked = 0;
  for (const auto& [mn, e] : committed.at("vector").items()) {
    for (const char* field : {"derived", "masked_derived"}) {
      if (!e.contains(field)) continue;
      const bool masked = std::string(field) == "masked_derived";
      for (const auto& [key, note_json] : e.at(field).items()) {
        const std::string note = note_json.get<std::string>();
        SCOPED_TRACE(mn + " " + key + " " + field + " = " + note);
        const size_t colon = note.find(':'), space = note.find(' ', colon);
        ASSERT_NE(colon, std::string::npos);
        ASSERT_NE(space, std::string::npos);
        const std::string rule = note.substr(0, colon), nb = note.substr(colon + 1, space - colon - 1),
                          nb_key = note.substr(space + 1);
        auto got = table().vector(mn, masked, vt_from_key(key));
        auto neighbour = table().vector(nb, masked, vt_from_key(nb_key));
        ASSERT_TRUE(got && neighbour);
        EXPECT_TRUE(got->derived && got->measured);
        EXPECT_FALSE(nb_key == key && nb == mn) << "a cell cannot be its own neighbour";
        // The neighbour is a measured figure, or itself derived from one (twice_half over a filled cell).
        EXPECT_TRUE(neighbour->measured);
        EXPECT_DOUBLE_EQ(got->rthroughput, (rule == "twice_half" ? 2 : 1) * neighbour->rthroughput);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000u);

  for (const auto& [mn, e] : committed.at("scalar").items()) {
    if (!e.contains("derived")) continue;
    SCOPED_TRACE(mn);
    const std::string note = e.at("derived").get<std::string>();
    ASSERT_EQ(note.rfind("sibling:", 0), 0u) << note;
    auto sibling = table().scalar(note.substr(8));
    auto got = table().scalar(mn);
    ASSERT_TRUE(sibling && got);
    EXPECT_TRUE(sibling->measured && !sibling->derived);
    EXPECT_TRUE(got->derived && got->measured);
    EXPECT_DOUBLE_EQ(got->rthroughput, sibling->rthroughput);
    EXPECT_EQ(got->unit, sibling->unit);
  }
}

// ---------------------------------------------------------------------------------------------------
// Always

TEST(X60Table, LoadsTheCommittedTable) {
  EXPECT_GT(table().vector_entries(), 450u);
  EXPECT_GT(table().scalar_entries(), 200u);
}

TEST(X60Table, KnownVectorFigures) {
  auto vadd = table().vector("vadd.vv", false, vt(32, 2));
  ASSERT_TRUE(vadd);
  EXPECT_DOUBLE_EQ(vadd->rthroughput, 4);
  EXPECT_EQ(vadd->unit, Unit::vieu);
  EXPECT_TRUE(vadd->measured);
  EXPECT_DOUBLE_EQ(vadd->latency, 8);  // LLVM

  auto vfdiv = table().vector("vfdiv.vv", false, vt(32, 0));
  ASSERT_TRUE(vfdiv);
  EXPECT_DOUBLE_EQ(vfdiv->rthroughput, 38.43);
  EXPECT_EQ(vfdiv->unit, Unit::vfp);
  EXPECT_DOUBLE_EQ(vfdiv->latency, 40);  // LLVM

  auto vle = table().vector("vle32.v", false, vt(32, 3));
  ASSERT_TRUE(vle);
  EXPECT_DOUBLE_EQ(vle->rthroughput, 16.52);
  EXPECT_EQ(vle->unit, Unit::vls);

  auto vred = table().vector("vfredusum.vs", false, vt(32, 0));
  ASSERT_TRUE(vred);
  EXPECT_DOUBLE_EQ(vred->rthroughput, 6.5);
  EXPECT_EQ(vred->unit, Unit::vfp);

  auto vfmacc = table().vector("vfmacc.vv", false, vt(32, 1));
  ASSERT_TRUE(vfmacc);
  EXPECT_EQ(vfmacc->unit, Unit::vfp);
  auto vse = table().vector("vse32.v", false, vt(32, 0));
  ASSERT_TRUE(vse);
  EXPECT_EQ(vse->unit, Unit::vls);

  // Strided rows: the ordinary positive-stride row (t3) is the representative.
  EXPECT_EQ(committed_table().at("vector").at("vlse32.v").at("row"), "vlse32.v v8,(t2),t3");
  EXPECT_EQ(committed_table().at("vector").at("vssseg2e16.v").at("row"), "vssseg2e16.v v8,(t2),t3");

  // Not measured: LLVM's figure, flagged as such.
  auto vl1r = table().vector("vl1re32.v", false, vt(32, 0));
  ASSERT_TRUE(vl1r);
  EXPECT_FALSE(vl1r->measured);
  EXPECT_FALSE(vl1r->derived);
  EXPECT_EQ(vl1r->unit, Unit::vls);
  // LLVM's 16 for vl8re32.v is below vle32.v under e32m8, which loads the same registers: floored there.
  auto vl8r = table().vector("vl8re32.v", false, vt(32, 0));
  ASSERT_TRUE(vl8r);
  EXPECT_TRUE(vl8r->measured && vl8r->derived);
  EXPECT_DOUBLE_EQ(vl8r->rthroughput, 16.52);
}

TEST(X60Table, MaskedFigures) {
  // vadd.vv has a measured masked row: 2 cycles at e32m1 against 1 unmasked.
  auto plain = table().vector("vadd.vv", false, vt(32, 0));
  auto masked = table().vector("vadd.vv", true, vt(32, 0));
  ASSERT_TRUE(plain && masked);
  EXPECT_DOUBLE_EQ(plain->rthroughput, 1);
  EXPECT_DOUBLE_EQ(masked->rthroughput, 2);

  // vadc.vvm has no masked row (v0 is its carry): masked falls back to the unmasked figure.
  auto adc = table().vector("vadc.vvm", false, vt(32, 2));
  auto adc_masked = table().vector("vadc.vvm", true, vt(32, 2));
  ASSERT_TRUE(adc && adc_masked);
  EXPECT_DOUBLE_EQ(adc_masked->rthroughput, adc->rthroughput);
  EXPECT_DOUBLE_EQ(adc_masked->latency, adc->latency);

  auto ssra = table().vector("vssra.vv", true, vt(16, 1));
  ASSERT_TRUE(ssra);
  EXPECT_DOUBLE_EQ(ssra->rthroughput, table().vector("vssra.vv", false, vt(16, 1))->rthroughput);
}

TEST(X60Table, WorstFigureOverEveryVtype) {
  // vlse8.v is costliest under e8m8 (256 elements, one a cycle); vill and illegal vtypes are charged that.
  auto worst = table().vector_worst("vlse8.v", false);
  auto e8m8 = table().vector("vlse8.v", false, vt(8, 3));
  ASSERT_TRUE(worst && e8m8);
  EXPECT_DOUBLE_EQ(worst->rthroughput, e8m8->rthroughput);
  EXPECT_GE(worst->latency, e8m8->latency);
  auto worst_masked = table().vector_worst("vlse8.v", true);
  ASSERT_TRUE(worst_masked);
  EXPECT_DOUBLE_EQ(worst_masked->rthroughput, table().vector("vlse8.v", true, vt(8, 3))->rthroughput);
  EXPECT_FALSE(table().vector_worst("vnotaninsn.vv", false));
}

TEST(X60Table, UnknownVtypeOrMnemonicIsNullopt) {
  EXPECT_FALSE(table().vector("vadd.vv", false, vt(16, -3)));  // e16mf8: reserved with ELEN=64
  EXPECT_FALSE(table().vector("vadd.vv", false, vt(64, -1)));  // e64mf2
  EXPECT_FALSE(table().vector("vwadd.vv", false, vt(32, 3)));  // widening at m8: no figure
  riscv::VType ill = vt(32, 0);
  ill.vill = true;
  EXPECT_FALSE(table().vector("vadd.vv", false, ill));
  EXPECT_FALSE(table().vector("vnotaninsn.vv", false, vt(32, 0)));
  EXPECT_FALSE(table().vector("add", false, vt(32, 0)));
  EXPECT_FALSE(table().scalar("notaninsn"));
  EXPECT_FALSE(table().scalar("vadd.vv"));
  EXPECT_FALSE(table().scalar("fence"));  // LLVM's model cannot schedule it
}

TEST(X60Table, ScalarFigures) {
  auto add = table().scalar("add");
  ASSERT_TRUE(add);
  EXPECT_DOUBLE_EQ(add->latency, 1);
  EXPECT_EQ(add->unit, Unit::ieu_any);
  EXPECT_TRUE(add->measured);
  EXPECT_LT(add->rthroughput, 1);

  auto ld = table().scalar("ld");
  ASSERT_TRUE(ld);
  EXPECT_EQ(ld->unit, Unit::ls);
  EXPECT_FALSE(ld->measured);

  auto div = table().scalar("div");
  ASSERT_TRUE(div);
  EXPECT_EQ(div->unit, Unit::ieu_a);
  EXPECT_GT(div->latency, 10);

  auto fdiv = table().scalar("fdiv.d");
  ASSERT_TRUE(fdiv);
  EXPECT_EQ(fdiv->unit, Unit::fp);

  for (const char* mn : {"addi", "sh2add", "andn", "cpop", "rev8", "bset", "fmadd.h", "fcvt.w.s", "fmv.x.d", "amoadd.d",
                         "lr.w", "csrrs", "vsetvli", "jalr", "beq", "flh", "lui"}) {
    EXPECT_TRUE(table().scalar(mn)) << mn;
  }
}

TEST(X60Table, UnitNames) {
  EXPECT_EQ(unit_name(Unit::ieu_any), "ieu_any");
  EXPECT_EQ(unit_name(Unit::vls), "vls");
  EXPECT_EQ(unit_name(Unit::none), "none");
}

// ---------------------------------------------------------------------------------------------------
// Errors

void expect_config_error(const fs::path& p, const std::string& needle) {
  try {
    X60Table::load(p);
    ADD_FAILURE() << "no ConfigError for " << p;
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(p.string()), std::string::npos) << what;
    EXPECT_NE(what.find(needle), std::string::npos) << what;
    EXPECT_NE(what.find("make_x60_table.py"), std::string::npos) << what;
  }
}

TEST(X60TableErrors, MissingFile) {
  expect_config_error(fs::temp_directory_path() / "eok-no-such-x60-table.json", "cannot read");
}

TEST(X60TableErrors, NotJson) {
  TempFile f("{\"format\": 1, \"vector\": {");
  expect_config_error(f.path(), "not valid JSON");
}

TEST(X60TableErrors, WrongShape) {
  TempFile no_vector(R"({"format":1,"scalar":{}})");
  expect_config_error(no_vector.path(), "\"vector\"");

  TempFile bad_unit(R"({"format":1,"scalar":{},"vector":{"vadd.vv":{"source":"tblMaa","unit":"warp",
                      "rthroughput":{"e32m1":1}}}})");
  expect_config_error(bad_unit.path(), "vector.vadd.vv.unit");

  TempFile bad_figure(R"({"format":1,"scalar":{},"vector":{"vadd.vv":{"source":"tblMaa","unit":"vieu",
                        "rthroughput":{"e32m1":"1.00"}}}})");
  expect_config_error(bad_figure.path(), "vector.vadd.vv.rthroughput.e32m1");

  TempFile bad_derived(R"({"format":1,"scalar":{},"vector":{"vadd.vv":{"source":"tblMaa","unit":"vieu",
                         "rthroughput":{"e32m1":1},"derived":{"e32m1":2}}}})");
  expect_config_error(bad_derived.path(), "vector.vadd.vv.derived.e32m1");

  TempFile bad_scalar(R"({"format":1,"vector":{},"scalar":{"add":{"unit":"ieu_any","latency":1}}})");
  expect_config_error(bad_scalar.path(), "scalar.add");

  TempFile old_format(R"({"format":0,"scalar":{},"vector":{}})");
  expect_config_error(old_format.path(), "format");

  TempFile fine(R"({"format":1,"scalar":{},"vector":{}})");
  EXPECT_EQ(X60Table::load(fine.path()).vector_entries(), 0u);
}

}  // namespace
}  // namespace eok::cost
