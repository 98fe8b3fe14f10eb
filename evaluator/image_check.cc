#include "evaluator/image_check.h"

#include <elf.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

#include "evaluator/elf_object.h"
#include "evaluator/target/eok_markers.h"
#include "src/common/text.h"
#include "src/common/error.h"

namespace eok::evaluator {

namespace {

constexpr uint64_t kPage = 4096;

// Output sections of the harness and the static C library that hold code (the sandbox links the same
// toolchain every time); anything else executable came from the candidate.
bool known_code_section(const std::string& name) {
  for (const char* known : {".text", "__libc_freeres_fn", ".init", ".fini", ".plt", ".iplt"}) {
    if (name == known) return true;
  }
  return false;
}

// The pages an executable segment maps, and where their bytes come from in the file.
struct ExecRange {
  uint64_t lo, hi;   // page-rounded virtual range
  uint64_t file_lo;  // file offset of `lo`
};

}  // namespace

ImageVerdict check_image(std::string_view exe, bool with_candidate) {
  ImageVerdict v;
  std::optional<ElfObject> elf;
  try {
    elf.emplace(exe, ET_EXEC);
  } catch (const Error& e) {
    v.infra = std::string("cannot read the linked program: ") + e.what();
    return v;
  }
  std::vector<ExecRange> exec;
  for (const auto& seg : elf->segments()) {
    if (seg.type == PT_GNU_STACK && (seg.flags & PF_X)) {
      v.violation = Violation{"executable-stack", "the program asks for an executable stack"};
      return v;
    }
    if (seg.type != PT_LOAD || !(seg.flags & PF_X)) continue;
    if (seg.flags & PF_W) {
      v.violation =
          Violation{"writable-code", "the linked program has a segment that is both writable and executable at " +
                                         hex_address(seg.vaddr) + " (a writable section was merged into code)"};
      return v;
    }
    const uint64_t lo = seg.vaddr & ~(kPage - 1);
    exec.push_back({lo, (seg.vaddr + seg.memsz + kPage - 1) & ~(kPage - 1), seg.offset - (seg.vaddr - lo)});
  }
  const auto file_bytes = [&](uint64_t lo, uint64_t hi, const ExecRange& r) -> std::span<const uint8_t> {
    const uint64_t off = r.file_lo + (lo - r.lo);
    if (off >= exe.size()) return {};
    const uint64_t n = std::min<uint64_t>(hi - lo, exe.size() - off);
    return {reinterpret_cast<const uint8_t*>(exe.data()) + off, n};
  };

  // Every section in an executable page is known code or the candidate's, whose bytes are decoded under
  // the kernel rules and watched at run time.
  bool found_candidate = false;
  for (const auto& sec : elf->sections()) {
    if (!(sec.flags & SHF_ALLOC) || sec.size == 0) continue;
    for (const auto& r : exec) {
      const uint64_t lo = std::max(sec.addr, r.lo), hi = std::min(sec.addr + sec.size, r.hi);
      if (lo >= hi) continue;
      if (sec.name == kCandidateSection && with_candidate) {
        if (auto bad = check_instructions(file_bytes(lo, hi, r), "linked kernel code", lo)) {
          v.violation = bad;
          return v;
        }
        v.facts.candidate_code.emplace_back(lo, hi);
        found_candidate = true;
      } else if (!known_code_section(sec.name)) {
        v.violation = Violation{"executable-data", "section " + sec.name + " lands in executable memory at " +
                                                       hex_address(lo) + "; only code may be executable"};
        return v;
      }
    }
  }
  if (with_candidate && !found_candidate) {
    v.infra =
        std::string("the linked program has no ") + kCandidateSection + " section (the link script was not applied?)";
    return v;
  }

  // Markers: exactly one of each, in the harness's eok_harness_call, nowhere else executable.
  uint64_t call_lo = 0, call_hi = 0;
  for (const auto& sym : elf->symbols()) {
    if (sym.name == "eok_harness_call" && sym.bind == STB_GLOBAL && sym.type == STT_FUNC) {
      call_lo = sym.value;
      call_hi = sym.value + sym.size;
    }
  }
  int begins = 0, ends = 0;
  for (const auto& r : exec) {
    const auto bytes = file_bytes(r.lo, r.hi, r);
    for (size_t off = 0; off + 4 <= bytes.size(); off += 2) {
      uint32_t w;
      std::memcpy(&w, bytes.data() + off, 4);
      if (w != EOK_MARK_BEGIN_INSN && w != EOK_MARK_END_INSN) continue;
      const uint64_t at = r.lo + off;
      if (at < call_lo || at >= call_hi) {
        v.violation =
            Violation{"measurement-marker", "a measurement marker instruction at " + hex_address(at) +
                                                ", outside the harness (only the harness may mark the timed call)"};
        return v;
      }
      if (w == EOK_MARK_BEGIN_INSN)
        ++begins, v.facts.begin_marker = at;
      else
        ++ends, v.facts.end_marker = at;
    }
  }
  if (begins != 1 || ends != 1) {
    v.infra = "the harness's markers were not found exactly once in the linked program (" + std::to_string(begins) +
              " begin, " + std::to_string(ends) + " end)";
  }
  return v;
}

}  // namespace eok::evaluator
