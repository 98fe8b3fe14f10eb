#include "evaluator/checker.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "evaluator/case_inputs.h"

namespace eok::evaluator {

namespace {

double half_to_double(uint16_t h) {
  const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0)
    v = std::ldexp(mant, -24);
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = std::ldexp(mant | 0x400, exp - 25);
  return sign ? -v : v;
}

std::string show(ElemType type, double v) {
  char buf[64];
  if (elem_is_float(type))
    std::snprintf(buf, sizeof buf, "%.9g", v);
  else
    std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

bool within(double got, double expected, const Tolerance& tol) {
  if (std::isnan(expected) || std::isnan(got)) return std::isnan(expected) && std::isnan(got);
  if (std::isinf(expected) || std::isinf(got)) return got == expected;
  return std::fabs(got - expected) <= tol.atol + tol.rtol * std::fabs(expected);
}

// The bytes the harness poisons an output element with (target/harness.c poison()).
bool is_poison(ElemType type, const char* p) {
  switch (type) {
    case ElemType::f16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v == 0x7e5au;
    }
    case ElemType::f32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v == 0x7fe5a5a5u;
    }
    case ElemType::f64: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return v == 0x7ffa5a5a5a5a5a5aull;
    }
    default: {
      for (size_t i = 0; i < elem_size(type); ++i) {
        if (static_cast<unsigned char>(p[i]) != 0xa5) return false;
      }
      return true;
    }
  }
}

bool element_ok(ElemType type, const char* got, const char* expected, const Tolerance& tol) {
  const size_t es = elem_size(type);
  if (tol.exact()) return std::memcmp(got, expected, es) == 0;
  // A NaN is any NaN, but the poison is not a result the kernel produced.
  if (is_poison(type, got) && !is_poison(type, expected)) return false;
  return within(element_value(type, got), element_value(type, expected), tol);
}

std::string show_bits(ElemType type, const char* p) {
  uint64_t bits = 0;
  std::memcpy(&bits, p, elem_size(type));
  char buf[32];
  std::snprintf(buf, sizeof buf, " (bits 0x%llx)", static_cast<unsigned long long>(bits));
  return buf;
}

}  // namespace

double element_value(ElemType type, const char* p) {
  switch (type) {
    case ElemType::f16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return half_to_double(h);
    }
    case ElemType::f32: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case ElemType::f64: {
      double d;
      std::memcpy(&d, p, 8);
      return d;
    }
    case ElemType::i8:
      return static_cast<int8_t>(*p);
    case ElemType::u8:
      return static_cast<uint8_t>(*p);
    case ElemType::i16: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case ElemType::u16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case ElemType::i32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case ElemType::u32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case ElemType::i64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<double>(v);
    }
    case ElemType::u64: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<double>(v);
    }
  }
  return 0;
}

CheckResult compare_outputs(const Task& task, const std::vector<PlannedCase>& cases, const Measurement& reference,
                            const Measurement& candidate, size_t max_mismatches) {
  CheckResult result;
  size_t total_bad = 0;
  std::string first_summary;
  auto note = [&](Mismatch m) {
    if (result.mismatches.size() < max_mismatches) result.mismatches.push_back(std::move(m));
  };
  auto note_error = [&](ElemType type, const char* got, const char* expected) {
    if (task.tolerance.exact() || !elem_is_float(type)) return;
    const double g = element_value(type, got), x = element_value(type, expected);
    const double allowed = task.tolerance.atol + task.tolerance.rtol * std::fabs(x);
    if (std::isfinite(g) && std::isfinite(x) && allowed > 0) {
      result.tolerance_used = std::max(result.tolerance_used, std::fabs(g - x) / allowed);
    }
  };
  // The evidence spreads over the cases: one mismatch from the calls at the timed size (they share it),
  // then up to two per check case, whose small sizes and special values say most about a bug.
  size_t noted_at_timed_size = 0;
  for (size_t ci = 0; ci < cases.size(); ++ci) {
    const bool at_timed_size = cases[ci].timed || cases[ci].warmup;
    size_t noted_in_case = 0;
    const std::string sizes = format_sizes(cases[ci].sizes) + (cases[ci].timed ? " (timed)" : "");
    const CallOutput* ref = reference.find_call(static_cast<uint32_t>(ci));
    const CallOutput* got = candidate.find_call(static_cast<uint32_t>(ci));
    if (!ref || !got) {
      result.status = EvalStatus::runtime_error;
      result.message = "the program produced no result for case " + std::to_string(ci) + " (" + sizes + ")";
      return result;
    }
    // The same plan gives the same inputs: anything else means the harness was tampered with before
    // the call (by the candidate, in an earlier call).
    if (ci < reference.begins.size() && ci < candidate.begins.size() &&
        reference.begins[ci].input_hashes != candidate.begins[ci].input_hashes) {
      result.status = EvalStatus::rejected;
      result.rule = "harness-tampered";
      result.message = "harness-tampered: the inputs of case " + std::to_string(ci) + " (" + sizes +
                       ") differ from the plan's; the kernel changed the harness in an earlier call";
      return result;
    }
    for (size_t ai = 0; ai < task.args.size(); ++ai) {
      const ArgSpec& spec = task.args[ai];
      if (!spec.is_buffer) continue;
      const BufferOutput* g = got->buffer(static_cast<uint32_t>(ai));
      const BufferOutput* r = ref->buffer(static_cast<uint32_t>(ai));
      if (!g || !r) {
        result.status = EvalStatus::runtime_error;
        result.message = "no record of " + spec.name + " at " + sizes;
        return result;
      }
      if (g->guard_before || g->guard_after) {
        result.status = EvalStatus::runtime_error;
        result.message = g->guard_after ? "out-of-bounds write: " + std::to_string(g->guard_after) +
                                              " byte(s) past the end of " + spec.name + " at " + sizes
                                        : "out-of-bounds write: " + std::to_string(g->guard_before) +
                                              " byte(s) before the start of " + spec.name + " at " + sizes;
        return result;
      }
      if (g->input_changed) {
        result.status = EvalStatus::wrong_answer;
        result.message = "modified its input " + spec.name + " (element " + std::to_string(g->input_changed - 1) +
                         ") at " + sizes + "; inputs are const";
        return result;
      }
      if (spec.access == Access::in) continue;
      const std::string& e = r->data;
      const size_t es = elem_size(spec.type);
      if (g->data.size() != e.size()) {
        result.status = EvalStatus::runtime_error;
        result.message = "output " + spec.name + " has the wrong size at " + sizes;
        return result;
      }
      size_t bad = 0;
      for (size_t k = 0; k + es <= e.size(); k += es) {
        if (element_ok(spec.type, g->data.data() + k, e.data() + k, task.tolerance)) {
          note_error(spec.type, g->data.data() + k, e.data() + k);
          continue;
        }
        std::string want = show(spec.type, element_value(spec.type, e.data() + k));
        std::string have = show(spec.type, element_value(spec.type, g->data.data() + k));
        if (want == have) want += show_bits(spec.type, e.data() + k), have += show_bits(spec.type, g->data.data() + k);
        if (is_poison(spec.type, g->data.data() + k)) have += " (never written)";
        if (bad++ == 0 && first_summary.empty()) {
          first_summary =
              spec.name + "[" + std::to_string(k / es) + "] expected " + want + " got " + have + " at " + sizes;
        }
        const bool room = at_timed_size ? noted_at_timed_size < 1 : noted_in_case < 2;
        if (room && result.mismatches.size() < max_mismatches) {
          note({ci, sizes, spec.name, static_cast<int64_t>(k / es), want, have,
                inputs_at(task, cases[ci], spec, static_cast<int64_t>(k / es))});
          ++(at_timed_size ? noted_at_timed_size : noted_in_case);
        }
      }
      if (bad) {
        total_bad += bad;
        if (result.message.empty()) {
          result.message = std::to_string(bad) + " of " + std::to_string(e.size() / es) + " elements of " + spec.name +
                           " wrong at " + sizes;
        }
      }
    }
    if (task.returns) {
      const ElemType rt = *task.returns;
      char rb[8], gb[8];
      std::memcpy(rb, &ref->ret_bits, 8);
      std::memcpy(gb, &got->ret_bits, 8);
      if (element_ok(rt, gb, rb, task.tolerance)) {
        note_error(rt, gb, rb);
      } else {
        ++total_bad;
        const std::string want = show(rt, element_value(rt, rb)), have = show(rt, element_value(rt, gb));
        if (first_summary.empty()) first_summary = "return value expected " + want + " got " + have + " at " + sizes;
        if (result.message.empty()) result.message = "wrong return value at " + sizes;
        note({ci, sizes, "return", -1, want, have, ""});
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
