#include "src/llm/http_embedder.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/llm/chat_protocol.h"
#include "src/llm/utf8.h"

namespace eok::llm {

using nlohmann::json;

namespace {

constexpr const char* kEmbeddingsPath = "/embeddings";

std::vector<float> to_vector(const json& embedding) {
  if (!embedding.is_array() || embedding.empty()) throw Error("an embedding is not a non-empty array of numbers");
  std::vector<float> v;
  v.reserve(embedding.size());
  for (const auto& x : embedding) {
    if (!x.is_number()) throw Error("an embedding holds something other than numbers");
    v.push_back(x.get<float>());
  }
  return v;
}

// data[] entries carry an "index"; servers are allowed to list them in any order.
std::vector<std::vector<float>> parse_embeddings(const std::string& body, size_t expected) {
  const json reply = json::parse(to_valid_utf8(body));
  if (!reply.is_object() || !reply.contains("data") || !reply["data"].is_array()) {
    throw Error("the reply has no data array");
  }
  const auto& data = reply["data"];
  if (data.size() != expected) throw Error(fmt::format("{} embeddings for {} inputs", data.size(), expected));
  std::vector<std::vector<float>> out(expected);
  for (size_t i = 0; i < data.size(); ++i) {
    const auto& item = data[i];
    if (!item.is_object() || !item.contains("embedding")) throw Error(fmt::format("data[{}] has no embedding", i));
    size_t index = i;
    if (item.contains("index") && item["index"].is_number_unsigned()) index = item["index"].get<size_t>();
    if (index >= expected || !out[index].empty()) throw Error(fmt::format("data[{}] has a bad index {}", i, index));
    out[index] = to_vector(item["embedding"]);
  }
  for (const auto& v : out) {
    if (v.size() != out.front().size()) throw Error("the embeddings have different dimensions");
  }
  return out;
}

}  // namespace

HttpEmbedder::HttpEmbedder(LlmSettings settings, int batch_size)
    : settings_(validated(std::move(settings))),
      batch_size_(batch_size),
      limit_(settings_.max_concurrency),
      http_(settings_) {
  if (batch_size_ < 1) throw ConfigError("the embedding batch size must be at least 1");
}

std::string HttpEmbedder::describe() const {
  return "embeddings from " + describe_endpoint(settings_);
}

std::vector<std::vector<float>> HttpEmbedder::embed(const std::vector<std::string>& texts) {
  std::vector<std::vector<float>> out;
  out.reserve(texts.size());
  for (size_t begin = 0; begin < texts.size(); begin += static_cast<size_t>(batch_size_)) {
    const size_t end = std::min(texts.size(), begin + static_cast<size_t>(batch_size_));
    auto batch = embed_batch(std::vector<std::string>(texts.begin() + begin, texts.begin() + end));
    for (auto& v : batch) out.push_back(std::move(v));
  }
  return out;
}

size_t HttpEmbedder::dim() const {
  {
    std::lock_guard lock(dim_mutex_);
    if (dim_ != 0) return dim_;
  }
  embed_batch({"dimension probe"});
  std::lock_guard lock(dim_mutex_);
  return dim_;
}

std::vector<std::vector<float>> HttpEmbedder::embed_batch(const std::vector<std::string>& texts) const {
  const json body = {{"model", settings_.model}, {"input", texts}};
  HttpOutcome outcome;
  {
    auto slot = limit_.acquire();
    outcome = http_.post_json(kEmbeddingsPath, serialise_json(body));
  }
  if (!outcome.succeeded()) {
    throw Error("embedding " + std::to_string(texts.size()) +
                " texts failed: " + http_.explain_failure(kEmbeddingsPath, outcome));
  }
  std::vector<std::vector<float>> vectors;
  try {
    vectors = parse_embeddings(outcome.reply.body, texts.size());
  } catch (const std::exception& e) {
    throw Error("bad embeddings reply from " + settings_.base_url + kEmbeddingsPath + ": " + e.what() + "; is '" +
                settings_.model + "' an embedding model?");
  }
  remember_dim(vectors.front().size());
  return vectors;
}

void HttpEmbedder::remember_dim(size_t dim) const {
  std::lock_guard lock(dim_mutex_);
  if (dim_ == 0) dim_ = dim;
  if (dim_ != dim) {
    throw Error(
        fmt::format("the embedding model '{}' returned {} dimensions after {} before", settings_.model, dim, dim_));
  }
}

}  // namespace eok::llm
