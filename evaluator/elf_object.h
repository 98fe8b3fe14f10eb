// A read-only view of a 64-bit little-endian RISC-V ELF file: a relocatable object (what clang -c produces)
// or a linked executable: its sections, symbols and loadable segments. Enough for the static checks; not a
// general ELF library.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace eok::evaluator {

struct ElfSection {
  std::string name;
  uint32_t type = 0;
  uint64_t flags = 0;  // SHF_*
  uint64_t size = 0;
  uint64_t addr = 0;      // load address (executables)
  std::string_view data;  // empty for SHT_NOBITS
};

struct ElfSegment {
  uint32_t type = 0;   // PT_LOAD, PT_GNU_STACK, ...
  uint32_t flags = 0;  // PF_R | PF_W | PF_X
  uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0, align = 0;
};

struct ElfSymbol {
  std::string name;
  uint8_t bind = 0;    // STB_LOCAL, STB_GLOBAL, STB_WEAK
  uint8_t type = 0;    // STT_FUNC, STT_OBJECT, ...
  uint16_t shndx = 0;  // 0 = undefined
  uint64_t value = 0, size = 0;
  bool undefined() const { return shndx == 0; }
};

class ElfObject {
 public:
  // Parses `bytes` (kept by reference: it must outlive the object). Throws Error with the reason when the
  // file is not a well-formed ELF64 LE RISC-V file of the expected type (ET_REL or ET_EXEC).
  ElfObject(std::string_view bytes, uint16_t expected_type = 1 /* ET_REL */);

  const std::vector<ElfSection>& sections() const { return sections_; }
  const std::vector<ElfSymbol>& symbols() const { return symbols_; }
  const std::vector<ElfSegment>& segments() const { return segments_; }
  uint64_t entry() const { return entry_; }

 private:
  std::vector<ElfSegment> segments_;
  uint64_t entry_ = 0;
  std::vector<ElfSection> sections_;
  std::vector<ElfSymbol> symbols_;
};

}  // namespace eok::evaluator
