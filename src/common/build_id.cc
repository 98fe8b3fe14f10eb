#include "src/common/build_id.h"

#include <elf.h>
#include <link.h>

#include <cstdio>
#include <cstring>

namespace eok {
namespace {

// Scans the PT_NOTE segments of the first object dl_iterate_phdr reports: the executable itself.
int find_build_id(struct dl_phdr_info* info, size_t, void* data) {
  auto* out = static_cast<std::string*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) & ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
    const unsigned char* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, p, sizeof note);
      const unsigned char* name = p + sizeof note;
      const unsigned char* desc = name + ((note.n_namesz + 3u) & ~3u);
      const unsigned char* next = desc + ((note.n_descsz + 3u) & ~3u);
      if (next > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        char hex[3];
        for (ElfW(Word) k = 0; k < note.n_descsz; ++k) {
          std::snprintf(hex, sizeof hex, "%02x", desc[k]);
          *out += hex;
        }
        return 1;
      }
      p = next;
    }
  }
  return 1;  // only the first object (the executable) is looked at
}

}  // namespace

std::string program_build_id() {
  std::string id;
  dl_iterate_phdr(find_build_id, &id);
  return id;
}

}  // namespace eok
