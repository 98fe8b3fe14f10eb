// On-disk cache of successful chat replies, keyed by the hash of the exact request (chat_protocol.h), so
// a run can be replayed without the LLM.
//
// Layout: DIR/<first 2 hex digits>/<hash>.json, one file per entry, written atomically (readers never see
// half an entry), never modified afterwards. An entry holds the request body and the reply:
//   {"schema": 1, "request_hash": ..., "request": {...}, "response": {"content", "finish_reason", "model",
//    "usage": {"prompt_tokens", "completion_tokens"}, "usage_estimated", "content_sanitised", "cost"},
//    "purpose": "the first caller's purpose (informational, not part of the key)"}
//
// Contract: thread-safe and safe across processes sharing DIR (atomic renames; two writers of one key
// write the same entry). A damaged entry is reported, never thrown, so a search goes on.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "src/llm/llm.h"

namespace eok::llm {

struct CacheLookup {
  enum class Status { hit, absent, damaged };
  Status status = Status::absent;
  ChatResponse response;  // hit: ok, content, finish_reason, model, usage and flags as stored; cost 0
  std::string problem;    // damaged: what is wrong with the entry and what to do
};

class ResponseCache {
 public:
  explicit ResponseCache(std::filesystem::path directory);

  const std::filesystem::path& directory() const { return directory_; }
  std::filesystem::path entry_path(const std::string& request_hash) const;

  // `request_body` must be the body the hash was computed from; an entry whose stored request differs
  // (a manual edit, a collision) counts as damaged.
  CacheLookup find(const std::string& request_hash, const nlohmann::json& request_body) const;

  // Stores an ok response; other responses are ignored (failures are never cached). Throws eok::Error
  // when the entry cannot be written (the message names the file).
  void store(const std::string& request_hash, const nlohmann::json& request_body, const ChatResponse& response,
             const std::string& purpose) const;

  static constexpr int kSchema = 1;

 private:
  std::filesystem::path directory_;
};

}  // namespace eok::llm
