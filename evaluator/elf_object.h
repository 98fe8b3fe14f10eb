// A read-only view of a 64-bit little-endian ELF relocatable object (what clang -c produces): its sections
// and symbols. Enough for the static checker; not a general ELF library.
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
  std::string_view data;  // empty for SHT_NOBITS
};

struct ElfSymbol {
  std::string name;
  uint8_t bind = 0;   // STB_LOCAL, STB_GLOBAL, STB_WEAK
  uint8_t type = 0;   // STT_FUNC, STT_OBJECT, ...
  uint16_t shndx = 0; // 0 = undefined
  uint64_t value = 0, size = 0;
  bool undefined() const { return shndx == 0; }
};

class ElfObject {
 public:
  // Parses `bytes` (kept by reference: it must outlive the object). Throws Error with the reason when the
  // file is not a well-formed ELF64 LE RISC-V relocatable.
  explicit ElfObject(std::string_view bytes);

  const std::vector<ElfSection>& sections() const { return sections_; }
  const std::vector<ElfSymbol>& symbols() const { return symbols_; }

 private:
  std::vector<ElfSection> sections_;
  std::vector<ElfSymbol> symbols_;
};

}  // namespace eok::evaluator
