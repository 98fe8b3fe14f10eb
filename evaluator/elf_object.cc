#include "evaluator/elf_object.h"

#include <elf.h>

#include <cstring>

#include "src/common/error.h"

namespace eok::evaluator {

namespace {

template <typename T>
T read_at(std::string_view bytes, uint64_t offset) {
  if (offset > bytes.size() || sizeof(T) > bytes.size() - offset) throw Error("object file truncated");
  T v;
  std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;
}

std::string_view slice(std::string_view bytes, uint64_t offset, uint64_t size) {
  if (offset > bytes.size() || size > bytes.size() - offset) throw Error("object file section out of bounds");
  return bytes.substr(offset, size);
}

std::string c_string(std::string_view table, uint32_t offset) {
  if (offset >= table.size()) return {};
  const char* start = table.data() + offset;
  return std::string(start, strnlen(start, table.size() - offset));
}

}  // namespace

ElfObject::ElfObject(std::string_view bytes, uint16_t expected_type) {
  const auto eh = read_at<Elf64_Ehdr>(bytes, 0);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) throw Error("not an ELF file");
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
    throw Error("not a 64-bit little-endian ELF");
  if (eh.e_machine != EM_RISCV) throw Error("not a RISC-V object");
  if (eh.e_type != expected_type)
    throw Error(expected_type == ET_REL ? "not a relocatable object" : "not an executable");
  entry_ = eh.e_entry;
  if (eh.e_phnum > 0) {
    if (eh.e_phentsize != sizeof(Elf64_Phdr)) throw Error("unexpected program header size");
    for (uint16_t i = 0; i < eh.e_phnum; ++i) {
      const auto ph = read_at<Elf64_Phdr>(bytes, eh.e_phoff + uint64_t{i} * sizeof(Elf64_Phdr));
      segments_.push_back({ph.p_type, ph.p_flags, ph.p_offset, ph.p_vaddr, ph.p_filesz, ph.p_memsz, ph.p_align});
    }
  }
  if (eh.e_shentsize != sizeof(Elf64_Shdr)) throw Error("unexpected section header size");

  std::vector<Elf64_Shdr> headers;
  for (uint16_t i = 0; i < eh.e_shnum; ++i)
    headers.push_back(read_at<Elf64_Shdr>(bytes, eh.e_shoff + uint64_t{i} * sizeof(Elf64_Shdr)));
  if (eh.e_shstrndx >= headers.size()) throw Error("bad section name table index");
  const auto& names_hdr = headers[eh.e_shstrndx];
  const std::string_view names = slice(bytes, names_hdr.sh_offset, names_hdr.sh_size);

  for (const auto& h : headers) {
    ElfSection s;
    s.name = c_string(names, h.sh_name);
    s.type = h.sh_type;
    s.flags = h.sh_flags;
    s.size = h.sh_size;
    s.addr = h.sh_addr;
    if (h.sh_type != SHT_NOBITS && h.sh_type != SHT_NULL) s.data = slice(bytes, h.sh_offset, h.sh_size);
    sections_.push_back(std::move(s));
  }
  for (const auto& h : headers) {
    if (h.sh_type != SHT_SYMTAB) continue;
    if (h.sh_link >= headers.size() || h.sh_entsize != sizeof(Elf64_Sym)) throw Error("malformed symbol table");
    const auto& strhdr = headers[h.sh_link];
    const std::string_view strtab = slice(bytes, strhdr.sh_offset, strhdr.sh_size);
    const uint64_t count = h.sh_size / sizeof(Elf64_Sym);
    for (uint64_t i = 1; i < count; ++i) {
      const auto sym = read_at<Elf64_Sym>(bytes, h.sh_offset + i * sizeof(Elf64_Sym));
      ElfSymbol s;
      s.name = c_string(strtab, sym.st_name);
      s.bind = ELF64_ST_BIND(sym.st_info);
      s.type = ELF64_ST_TYPE(sym.st_info);
      s.shndx = sym.st_shndx;
      s.value = sym.st_value;
      s.size = sym.st_size;
      symbols_.push_back(std::move(s));
    }
  }
}

}  // namespace eok::evaluator
