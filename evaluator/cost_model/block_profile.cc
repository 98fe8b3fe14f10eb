#include "evaluator/cost_model/block_profile.h"

#include <cstdlib>
#include <sstream>

namespace eok::cost {

namespace {

bool parse_hex_bytes(const std::string& hex, std::vector<uint8_t>& out) {
  if (hex.size() % 2 != 0) return false;
  out.resize(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    char pair[3] = {hex[2 * i], hex[2 * i + 1], 0};
    char* end;
    out[i] = static_cast<uint8_t>(std::strtoul(pair, &end, 16));
    if (end != pair + 2) return false;
  }
  return true;
}

constexpr int kProfileVersion = 2;  // the plugin's "eok-profile 2"

}  // namespace

std::vector<std::pair<std::string, uint64_t*>> MemoryCounters::named() {
  std::vector<std::pair<std::string, uint64_t*>> f = {{"loads", &loads},
                                                      {"stores", &stores},
                                                      {"load_bytes", &load_bytes},
                                                      {"store_bytes", &store_bytes},
                                                      {"store_alloc_l2", &store_allocs[0]},
                                                      {"store_alloc_dram", &store_allocs[1]},
                                                      {"late_fill_l2", &late_fills[0]},
                                                      {"late_fill_dram", &late_fills[1]},
                                                      {"l1_writebacks", &l1_writebacks},
                                                      {"l2_writebacks", &l2_writebacks},
                                                      {"vector_split_load", &vector_split_lines[0]},
                                                      {"vector_split_store", &vector_split_lines[1]},
                                                      {"descending_store_dram", &descending_store_misses}};
  static const char* const kKind[2] = {"scalar", "vector"};
  static const char* const kLevel[2] = {"l2", "dram"};
  static const char* const kHow[2] = {"random", "stream"};
  for (int k = 0; k < 2; ++k) {
    for (int l = 0; l < 2; ++l) {
      for (int h = 0; h < 2; ++h)
        f.emplace_back(std::string("fill_") + kKind[k] + "_" + kLevel[l] + "_" + kHow[h], &load_fills[k][l][h]);
    }
  }
  return f;
}

std::vector<std::pair<std::string, uint64_t>> MemoryCounters::named() const {
  MemoryCounters copy = *this;
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const auto& [name, field] : copy.named()) out.emplace_back(name, *field);
  return out;
}

uint64_t MemoryCounters::fills_from(int level) const {
  uint64_t n = 0;
  for (int k = 0; k < 2; ++k) n += load_fills[k][level][0] + load_fills[k][level][1];
  return n;
}

BlockProfile parse_block_profile(std::string_view text) {
  BlockProfile p;
  std::istringstream in{std::string(text)};
  std::string line;
  bool header = false;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string word;
    ls >> word;
    if (word == "eok-profile") {
      int version = 0;
      ls >> version;
      header = version == kProfileVersion;
    } else if (word == "mem") {
      std::string key;
      uint64_t value;
      const auto fields = p.mem.named();
      while (ls >> key >> value) {
        for (const auto& [name, field] : fields) {
          if (name == key) *field = value;
        }
      }
    } else if (word == "block") {
      ExecutedBlock b;
      std::string addr, hex;
      ls >> addr >> b.vtype >> b.count >> hex;
      if (!ls || !parse_hex_bytes(hex, b.bytes)) return p;  // cut short: incomplete
      b.vaddr = std::strtoull(addr.c_str(), nullptr, 16);
      p.blocks.push_back(std::move(b));
    } else if (word == "vmem") {
      uint32_t offset = 0;
      uint64_t moved = 0;
      ls >> offset >> moved;
      if (!ls || p.blocks.empty()) return p;  // malformed: incomplete
      p.blocks.back().vector_bytes.emplace_back(offset, moved);
    } else if (word == "end") {
      p.complete = header;
    }
  }
  return p;
}

}  // namespace eok::cost
