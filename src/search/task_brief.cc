#include "src/search/task_brief.h"

#include <cstdio>

#include "evaluator/target/harness_protocol.h"
#include "src/common/fs_util.h"

namespace eok::search {

namespace {

const char* access_name(evaluator::Access a) {
  switch (a) {
    case evaluator::Access::in:
      return "input";
    case evaluator::Access::out:
      return "output";
    case evaluator::Access::inout:
      return "input and output (in place)";
  }
  return "";
}

std::string specials_text(unsigned bits) {
  std::string out;
  auto add = [&](unsigned bit, const char* name) {
    if (bits & bit) out += std::string(out.empty() ? "" : ", ") + name;
  };
  add(EOK_SPECIAL_NAN, "NaN");
  add(EOK_SPECIAL_INF, "+inf");
  add(EOK_SPECIAL_NEG_INF, "-inf");
  add(EOK_SPECIAL_ZERO, "+0 and -0");
  add(EOK_SPECIAL_HUGE, "+-1e30 (+-60000 for f16)");
  return out;
}

}  // namespace

std::string task_specification(const evaluator::Task& task, size_t max_chars) {
  std::string ref;
  try {
    ref = read_file(task.ref_path());
  } catch (const std::exception&) {
    return "";
  }
  if (ref.size() > max_chars) {
    ref = ref.substr(0, max_chars);
    ref = ref.substr(0, ref.rfind('\n') + 1) + "/* [the rest of the reference is omitted] */\n";
  }
  return ref;
}

std::string task_inputs(const evaluator::Task& task) {
  std::string out;
  for (const auto& a : task.args) {
    if (!a.is_buffer) {
      out += "- " + a.name + ": " + a.c_type + " scalar = " + a.value + "\n";
      continue;
    }
    out += "- " + a.name + ": " + evaluator::elem_name(a.type) + "[" + a.len + "], " + access_name(a.access);
    if (a.access != evaluator::Access::out) {
      out += std::string(", values ") + evaluator::dist_name(a.dist) + " in [" + a.lo + ", " + a.hi + "]";
      if (a.specials) out += "; the check calls also put " + specials_text(a.specials) + " at scattered places";
    }
    out += "\n";
  }
  out += "Timed call: " + evaluator::format_sizes(task.timed) + " (plain values, no special ones). Checked at:";
  for (size_t i = 0; i < task.checks.size(); ++i) out += (i ? "; " : " ") + evaluator::format_sizes(task.checks[i]);
  out += ", and every timed call's outputs are checked too.\n";
  return out;
}

std::string task_tolerance(const evaluator::Task& task) {
  if (task.tolerance.exact()) return "bit-exact";
  char buf[128];
  std::snprintf(buf, sizeof buf, "|out - ref| <= %g + %g * |ref| (%s)", task.tolerance.atol, task.tolerance.rtol,
                task.tolerance.name.c_str());
  return buf;
}

}  // namespace eok::search
