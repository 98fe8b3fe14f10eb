// The idea pool as the search reads it (schema in SCHEMA.md).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace eok::idea_pool {

struct CommitRef {
  std::string sha, title;
  double effectiveness = 0;
  bool estimated = true;
};

struct CodeExample {
  std::string commit, file, code;
};

struct Thought {
  std::string id, description;
  double effectiveness = 0;
  bool estimated = true;
  double confidence = 0;
  std::vector<CommitRef> commits;
  std::vector<CodeExample> examples;
};

struct Idea {
  std::string id, principle;
  double effectiveness = 0;
  std::vector<Thought> thoughts;
};

struct IdeaPool {
  std::string schema;
  std::map<std::string, std::string> source;  // provenance: repo, branch, head, variant, embedder, distiller ...
  std::string description;                    // one line from `source`, for the run log
  std::vector<Idea> ideas;
  std::filesystem::path file;

  size_t thought_count() const;
};

// Loads and validates a pool file. Throws ConfigError naming the file and the JSON path at fault
// ("ideas[2].thoughts[0].description: missing"), NotFoundError when the file does not exist.
IdeaPool load_pool(const std::filesystem::path& file);

// The pool as JSON text (schema eok-idea-pool/1; load_pool reads it back unchanged).
std::string pool_to_json(const IdeaPool& pool);

// The workspace's latest mined pool (pools/latest.json), if there is one.
std::filesystem::path latest_pool_path(const std::filesystem::path& workspace_root);

}  // namespace eok::idea_pool
