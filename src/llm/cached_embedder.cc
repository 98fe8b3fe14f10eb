#include "src/llm/cached_embedder.h"

#include <cstring>
#include <fstream>

#include "src/common/fs_util.h"
#include "src/common/hash.h"

namespace eok::llm {

namespace fs = std::filesystem;

CachedEmbedder::CachedEmbedder(Embedder& inner, std::string model_key, fs::path directory)
    : inner_(inner), model_key_(std::move(model_key)), directory_(std::move(directory)) {}

fs::path CachedEmbedder::entry_path(const std::string& text) const {
  const std::string key = Hasher().add(model_key_).add(text).hex();
  return directory_ / key.substr(0, 2) / (key + ".f32");
}

std::vector<std::vector<float>> CachedEmbedder::embed(const std::vector<std::string>& texts) {
  std::vector<std::vector<float>> out(texts.size());
  std::vector<size_t> missing;
  std::vector<std::string> missing_texts;
  for (size_t i = 0; i < texts.size(); ++i) {
    std::ifstream in(entry_path(texts[i]), std::ios::binary);
    std::string bytes;
    if (in) bytes.assign(std::istreambuf_iterator<char>(in), {});
    // Writes are atomic, so a bad length means a file damaged by hand: embed the text again.
    if (bytes.empty() || bytes.size() % sizeof(float) != 0) {
      missing.push_back(i);
      missing_texts.push_back(texts[i]);
      continue;
    }
    out[i].resize(bytes.size() / sizeof(float));
    std::memcpy(out[i].data(), bytes.data(), bytes.size());
  }
  hits_ += texts.size() - missing.size();
  misses_ += missing.size();
  if (missing.empty()) return out;
  std::vector<std::vector<float>> fresh = inner_.embed(missing_texts);
  for (size_t j = 0; j < missing.size() && j < fresh.size(); ++j) {
    const auto& v = fresh[j];
    write_file_atomic(entry_path(missing_texts[j]),
                      std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float)));
    out[missing[j]] = v;
  }
  return out;
}

}  // namespace eok::llm
