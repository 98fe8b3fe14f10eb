#include "src/llm/response_cache.h"

#include <algorithm>
#include <cctype>

#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/llm/chat_protocol.h"

namespace eok::llm {

using nlohmann::json;

namespace {

void check_hash(const std::string& hash) {
  // The hash becomes a file name: accept only what chat_request_hash produces.
  const bool hex = std::all_of(hash.begin(), hash.end(), [](unsigned char c) { return std::isxdigit(c); });
  if (hash.size() < 8 || !hex) throw Error("response cache: '" + hash + "' is not a request hash");
}

ChatResponse response_from_entry(const json& stored) {
  ChatResponse r;
  r.ok = true;
  r.content = stored.at("content").get<std::string>();
  r.finish_reason = stored.value("finish_reason", "");
  r.model = stored.value("model", "");
  r.usage.prompt_tokens = stored.at("usage").at("prompt_tokens").get<int64_t>();
  r.usage.completion_tokens = stored.at("usage").at("completion_tokens").get<int64_t>();
  r.usage_estimated = stored.value("usage_estimated", false);
  r.content_sanitised = stored.value("content_sanitised", false);
  return r;
}

}  // namespace

ResponseCache::ResponseCache(std::filesystem::path directory) : directory_(std::move(directory)) {}

std::filesystem::path ResponseCache::entry_path(const std::string& request_hash) const {
  check_hash(request_hash);
  return directory_ / request_hash.substr(0, 2) / (request_hash + ".json");
}

CacheLookup ResponseCache::find(const std::string& request_hash, const json& request_body) const {
  CacheLookup lookup;
  const auto path = entry_path(request_hash);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return lookup;
  lookup.status = CacheLookup::Status::damaged;
  const std::string fix = "; delete " + path.string() + " to ask the LLM again";
  try {
    const json entry = json::parse(read_file(path));
    if (entry.value("schema", 0) != kSchema) {
      lookup.problem = "cache entry " + path.string() + " has an unknown schema" + fix;
      return lookup;
    }
    // Compare serialised forms: that is what the hash was taken over.
    if (serialise_json(entry.at("request")) != serialise_json(request_body)) {
      lookup.problem = "cache entry " + path.string() + " holds a different request" + fix;
      return lookup;
    }
    lookup.response = response_from_entry(entry.at("response"));
  } catch (const std::exception& e) {
    lookup.problem = "cache entry " + path.string() + " is damaged (" + e.what() + ")" + fix;
    return lookup;
  }
  lookup.response.request_hash = request_hash;
  lookup.status = CacheLookup::Status::hit;
  return lookup;
}

void ResponseCache::store(const std::string& request_hash, const json& request_body, const ChatResponse& response,
                          const std::string& purpose) const {
  if (!response.ok) return;
  const json entry = {
      {"schema", kSchema},
      {"request_hash", request_hash},
      {"request", request_body},
      {"response",
       {
           {"content", response.content},
           {"finish_reason", response.finish_reason},
           {"model", response.model},
           {"usage",
            {{"prompt_tokens", response.usage.prompt_tokens}, {"completion_tokens", response.usage.completion_tokens}}},
           {"usage_estimated", response.usage_estimated},
           {"content_sanitised", response.content_sanitised},
           {"cost", response.cost},
       }},
      {"purpose", purpose},
  };
  const auto path = entry_path(request_hash);
  try {
    write_file_atomic(path, entry.dump(1, ' ', false, json::error_handler_t::replace) + "\n");
  } catch (const std::filesystem::filesystem_error& e) {
    throw Error("cannot write the LLM response cache entry " + path.string() + ": " + e.what());
  }
}

}  // namespace eok::llm
