#include "evaluator/checker.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace eok::evaluator {

namespace {

double half_to_double(uint16_t h) {
  const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0) v = std::ldexp(mant, -24);
  else if (exp == 31) v = mant ? NAN : INFINITY;
  else v = std::ldexp(mant | 0x400, exp - 25);
  return sign ? -v : v;
}

std::string show(ElemType type, double v) {
  char buf[64];
  if (elem_is_float(type)) std::snprintf(buf, sizeof buf, "%.9g", v);
  else std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

bool within(double got, double expected, const Tolerance& tol) {
  if (std::isnan(expected) || std::isnan(got)) return std::isnan(expected) && std::isnan(got);
  if (std::isinf(expected) || std::isinf(got)) return got == expected;
  return std::fabs(got - expected) <= tol.atol + tol.rtol * std::fabs(expected);
}

}  // namespace

double element_value(ElemType type, const char* p) {
  switch (type) {
    case ElemType::f16: { uint16_t h; std::memcpy(&h, p, 2); return half_to_double(h); }
    case ElemType::f32: { float f; std::memcpy(&f, p, 4); return f; }
    case ElemType::f64: { double d; std::memcpy(&d, p, 8); return d; }
    case ElemType::i8: return static_cast<int8_t>(*p);
    case ElemType::u8: return static_cast<uint8_t>(*p);
    case ElemType::i16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case ElemType::u16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case ElemType::i32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case ElemType::u32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    case ElemType::i64: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case ElemType::u64: { uint64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
  }
  return 0;
}

CheckResult compare_outputs(const Task& task, const std::vector<PlannedCase>& cases, const HarnessOutput& reference,
                            const HarnessOutput& candidate, size_t max_mismatches) {
  CheckResult result;
  size_t total_bad = 0;
  std::string first_summary;
  auto note = [&](Mismatch m) {
    if (result.mismatches.size() < max_mismatches) result.mismatches.push_back(std::move(m));
  };
  for (size_t ci = 0; ci < cases.size(); ++ci) {
    const std::string sizes = format_sizes(cases[ci].sizes) + (cases[ci].timed ? " (timed)" : "");
    const CaseOutput* ref = reference.find_case(static_cast<uint32_t>(ci));
    const CaseOutput* got = candidate.find_case(static_cast<uint32_t>(ci));
    if (!ref || !got || got->args.size() != task.args.size() || ref->args.size() != task.args.size()) {
      result.status = EvalStatus::runtime_error;
      result.message = "the program produced no result for case " + std::to_string(ci) + " (" + sizes + ")";
      return result;
    }
    for (size_t ai = 0; ai < task.args.size(); ++ai) {
      const ArgSpec& spec = task.args[ai];
      const ArgOutput& g = got->args[ai];
      if (!spec.is_buffer) continue;
      if (g.guard_before || g.guard_after) {
        result.status = EvalStatus::runtime_error;
        result.message = g.guard_after
                             ? "out-of-bounds write: " + std::to_string(g.guard_after) + " byte(s) past the end of " +
                                   spec.name + " at " + sizes
                             : "out-of-bounds write: " + std::to_string(g.guard_before) + " byte(s) before the start of " +
                                   spec.name + " at " + sizes;
        return result;
      }
      if (g.input_changed) {
        result.status = EvalStatus::wrong_answer;
        result.message = "modified its input " + spec.name + " (element " + std::to_string(g.input_changed - 1) +
                         ") at " + sizes + "; inputs are const";
        return result;
      }
      if (spec.access == Access::in) continue;
      const std::string& r = ref->args[ai].data;
      const size_t es = elem_size(spec.type);
      if (g.data.size() != r.size()) {
        result.status = EvalStatus::runtime_error;
        result.message = "output " + spec.name + " has the wrong size at " + sizes;
        return result;
      }
      size_t bad = 0;
      for (size_t k = 0; k + es <= r.size(); k += es) {
        const double e = element_value(spec.type, r.data() + k), v = element_value(spec.type, g.data.data() + k);
        if (within(v, e, task.tolerance)) continue;
        if (bad++ == 0 && first_summary.empty()) {
          first_summary = spec.name + "[" + std::to_string(k / es) + "] expected " + show(spec.type, e) + " got " +
                          show(spec.type, v) + " at " + sizes;
        }
        note({ci, sizes, spec.name, static_cast<int64_t>(k / es), show(spec.type, e), show(spec.type, v)});
      }
      if (bad) {
        total_bad += bad;
        if (result.message.empty()) {
          result.message = std::to_string(bad) + " of " + std::to_string(r.size() / es) + " elements of " + spec.name +
                           " wrong at " + sizes;
        }
      }
    }
    if (task.returns) {
      const ElemType rt = *task.returns;
      char rb[8], gb[8];
      std::memcpy(rb, &ref->ret_bits, 8);
      std::memcpy(gb, &got->ret_bits, 8);
      const double e = element_value(rt, rb), v = element_value(rt, gb);
      if (!within(v, e, task.tolerance)) {
        ++total_bad;
        if (first_summary.empty()) first_summary = "return value expected " + show(rt, e) + " got " + show(rt, v) + " at " + sizes;
        if (result.message.empty()) result.message = "wrong return value at " + sizes;
        note({ci, sizes, "return", -1, show(rt, e), show(rt, v)});
      }
    }
  }
  if (total_bad) {
    result.status = EvalStatus::wrong_answer;
    result.message += " (first: " + first_summary + ")";
  }
  return result;
}

}  // namespace eok::evaluator
