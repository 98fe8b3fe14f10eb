// Embeddings from an OpenAI-compatible server: POST {base_url}/embeddings, inputs sent in batches, with the
// timeouts, retries and backoff of the chat client (retrying_http_client.h).
//
// Contract (on top of Embedder's): vectors come back in input order whatever order the server lists them
// in; a reply with the wrong count or mixed dimensions throws eok::Error. dim() is known after the first
// embed(); before it, dim() embeds one probe text to learn it. Thread-safe; at most max_concurrency
// batches in flight.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "src/llm/concurrency_limit.h"
#include "src/llm/llm.h"
#include "src/llm/llm_settings.h"
#include "src/llm/retrying_http_client.h"

namespace eok::llm {

class HttpEmbedder : public Embedder {
 public:
  // `settings.model` names the embedding model. Throws ConfigError for unusable settings or batch_size < 1.
  explicit HttpEmbedder(LlmSettings settings, int batch_size = 64);

  std::vector<std::vector<float>> embed(const std::vector<std::string>& texts) override;
  size_t dim() const override;
  std::string describe() const override;

 private:
  std::vector<std::vector<float>> embed_batch(const std::vector<std::string>& texts) const;
  void remember_dim(size_t dim) const;

  const LlmSettings settings_;
  const int batch_size_;
  mutable ConcurrencyLimit limit_;
  mutable RetryingHttpClient http_;
  mutable std::mutex dim_mutex_;
  mutable size_t dim_ = 0;  // 0 until the first reply
};

}  // namespace eok::llm
