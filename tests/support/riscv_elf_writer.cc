#include "support/riscv_elf_writer.h"

#include <elf.h>

#include <cstdint>
#include <cstring>

#include "evaluator/image_check.h"
#include "evaluator/target/eok_markers.h"

namespace eok::testing {

namespace {

constexpr uint32_t kRet = 0x00008067;  // jalr zero, 0(ra)
constexpr uint32_t kNop = 0x00000013;  // addi zero, zero, 0
constexpr uint64_t kLoadAddress = 0x10000;

struct Section {
  std::string name;
  uint32_t type = SHT_PROGBITS;
  uint64_t flags = 0;
  std::string data;
};

struct Symbol {
  std::string name;
  uint8_t bind = STB_GLOBAL;
  uint8_t type = STT_NOTYPE;
  uint16_t section = 0;  // index in the section list written (0: undefined)
  uint64_t value = 0, size = 0;
};

std::string words(const std::vector<uint32_t>& insns) {
  std::string out(insns.size() * 4, '\0');
  std::memcpy(out.data(), insns.data(), out.size());
  return out;
}

template <typename T>
void put(std::string& out, uint64_t offset, const T& value) {
  if (out.size() < offset + sizeof value) out.resize(offset + sizeof value);
  std::memcpy(out.data() + offset, &value, sizeof value);
}

uint32_t add_name(std::string& table, const std::string& name) {
  const auto at = static_cast<uint32_t>(table.size());
  table += name;
  table += '\0';
  return at;
}

uint64_t align8(uint64_t n) {
  return (n + 7) & ~uint64_t{7};
}

// Lays out `sections` (index 1 onwards; 0 is the null section), then .symtab, .strtab and .shstrtab, then
// the section headers. An executable gets one read+execute PT_LOAD segment mapping the file from offset 0
// at kLoadAddress, and a symbol's value in an executable is an address (`value` is taken as the offset in
// its section).
std::string write_elf(uint16_t type, const std::vector<Section>& sections, const std::vector<Symbol>& symbols) {
  const bool exec = type == ET_EXEC;
  std::string out;
  uint64_t offset = sizeof(Elf64_Ehdr) + (exec ? sizeof(Elf64_Phdr) : 0);
  std::vector<uint64_t> offsets;
  for (const auto& s : sections) {
    offset = align8(offset);
    offsets.push_back(offset);
    out.resize(offset);
    out += s.data;
    offset = out.size();
  }
  const uint64_t mapped_end = offset;
  auto address = [&](size_t index) { return exec ? kLoadAddress + offsets[index] : 0; };

  std::string strtab(1, '\0');
  std::string symtab(sizeof(Elf64_Sym), '\0');  // symbol 0 is the null symbol
  for (const auto& sym : symbols) {
    Elf64_Sym s{};
    s.st_name = add_name(strtab, sym.name);
    s.st_info = ELF64_ST_INFO(sym.bind, sym.type);
    s.st_shndx = sym.section;
    s.st_value = sym.section > 0 ? address(sym.section - 1) + sym.value : 0;
    s.st_size = sym.size;
    put(symtab, symtab.size(), s);
  }
  std::vector<Section> all = sections;
  const auto symtab_index = static_cast<uint32_t>(all.size() + 1);
  all.push_back({".symtab", SHT_SYMTAB, 0, symtab});
  all.push_back({".strtab", SHT_STRTAB, 0, strtab});
  all.push_back({".shstrtab", SHT_STRTAB, 0, ""});
  std::string shstrtab(1, '\0');
  std::vector<uint32_t> names;
  for (const auto& s : all) names.push_back(add_name(shstrtab, s.name));
  all.back().data = shstrtab;
  for (size_t i = sections.size(); i < all.size(); ++i) {
    offsets.push_back(align8(out.size()));
    out.resize(offsets.back());
    out += all[i].data;
  }

  const uint64_t shoff = align8(out.size());
  out.resize(shoff);
  put(out, out.size(), Elf64_Shdr{});  // the null section
  for (size_t i = 0; i < all.size(); ++i) {
    Elf64_Shdr h{};
    h.sh_name = names[i];
    h.sh_type = all[i].type;
    h.sh_flags = all[i].flags;
    h.sh_addr = i < sections.size() ? address(i) : 0;
    h.sh_offset = offsets[i];
    h.sh_size = all[i].data.size();
    h.sh_addralign = i < sections.size() ? 4 : 8;
    if (all[i].type == SHT_SYMTAB) {
      h.sh_link = symtab_index + 1;  // .strtab follows .symtab
      h.sh_info = 1;                 // every symbol after the null one is global
      h.sh_entsize = sizeof(Elf64_Sym);
    }
    put(out, out.size(), h);
  }

  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = type;
  eh.e_machine = EM_RISCV;
  eh.e_version = EV_CURRENT;
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_shoff = shoff;
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = static_cast<uint16_t>(all.size() + 1);
  eh.e_shstrndx = static_cast<uint16_t>(all.size());
  if (exec) {
    eh.e_phoff = sizeof(Elf64_Ehdr);
    eh.e_phentsize = sizeof(Elf64_Phdr);
    eh.e_phnum = 1;
    eh.e_entry = address(0);
    Elf64_Phdr ph{};
    ph.p_type = PT_LOAD;
    ph.p_flags = PF_R | PF_X;
    ph.p_vaddr = kLoadAddress;
    ph.p_filesz = ph.p_memsz = mapped_end;
    ph.p_align = 0x1000;
    put(out, sizeof(Elf64_Ehdr), ph);
  }
  put(out, 0, eh);
  return out;
}

}  // namespace

std::string riscv_kernel_object(const std::string& entry, const std::vector<std::string>& undefined) {
  std::vector<Symbol> symbols{{entry, STB_GLOBAL, STT_FUNC, 1, 0, 4}};
  for (const auto& name : undefined) symbols.push_back({name, STB_GLOBAL, STT_NOTYPE, 0, 0, 0});
  return write_elf(ET_REL, {{".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, words({kRet})}}, symbols);
}

std::string riscv_harness_program(bool with_candidate) {
  const std::string call = words({EOK_MARK_BEGIN_INSN, kNop, EOK_MARK_END_INSN, kRet});
  std::vector<Section> sections{{".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, call}};
  if (with_candidate)
    sections.push_back({evaluator::kCandidateSection, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, words({kRet})});
  return write_elf(ET_EXEC, sections, {{"eok_harness_call", STB_GLOBAL, STT_FUNC, 1, 0, call.size()}});
}

}  // namespace eok::testing
