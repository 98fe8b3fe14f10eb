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

}  // namespace

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
      header = true;
    } else if (word == "mem") {
      std::string key;
      uint64_t value;
      auto& m = p.mem;
      while (ls >> key >> value) {
        if (key == "loads") m.loads = value;
        else if (key == "stores") m.stores = value;
        else if (key == "load_bytes") m.load_bytes = value;
        else if (key == "store_bytes") m.store_bytes = value;
        else if (key == "l1_load_misses") m.l1_load_misses = value;
        else if (key == "l1_store_misses") m.l1_store_misses = value;
        else if (key == "l1_writebacks") m.l1_writebacks = value;
        else if (key == "l2_load_misses") m.l2_load_misses = value;
        else if (key == "l2_store_misses") m.l2_store_misses = value;
        else if (key == "l2_writebacks") m.l2_writebacks = value;
        else if (key == "l1_dirty_end") m.l1_dirty_end = value;
        else if (key == "dirty_end") m.dirty_end = value;
      }
    } else if (word == "block") {
      ExecutedBlock b;
      std::string addr, hex;
      ls >> addr >> b.vtype >> b.count >> hex;
      if (!ls || !parse_hex_bytes(hex, b.bytes)) return p;  // cut short: incomplete
      b.vaddr = std::strtoull(addr.c_str(), nullptr, 16);
      p.blocks.push_back(std::move(b));
    } else if (word == "end") {
      p.complete = header;
    }
  }
  return p;
}

}  // namespace eok::cost
