// eok ideas: browse an idea pool: ideas with their principles, thoughts with effectiveness and commits.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "idea_pool/example_index.h"
#include "idea_pool/pool.h"
#include "src/cli/cli.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/log.h"
#include "src/common/config.h"
#include "src/common/paths.h"
#include "src/llm/http_embedder.h"
#include "src/llm/llm_choice.h"

namespace eok::cli {

namespace {

struct IdeasOptions {
  std::string pool, idea, query;
  size_t k = 5;
  bool json = false, examples = false;
};

// The thought `id` of `pool` (nullptr when absent).
const idea_pool::Thought* find_thought(const idea_pool::IdeaPool& pool, const std::string& id) {
  for (const auto& idea : pool.ideas) {
    for (const auto& t : idea.thoughts) {
      if (t.id == id) return &t;
    }
  }
  return nullptr;
}

// --query: the pool's example code closest to a text, through the example index eok mine wrote.
int run_query(const IdeasOptions& opt, const GlobalOptions& global, const idea_pool::IdeaPool& pool,
              const std::filesystem::path& file) {
  const idea_pool::ExampleIndex index = idea_pool::ExampleIndex::load(file);
  std::unique_ptr<llm::HttpEmbedder> http;
  if (index.embedder_name().rfind("offline", 0) != 0) {
    // Built with an embedding model: the same model embeds the query.
    http = std::make_unique<llm::HttpEmbedder>(llm::embedding_settings(Config::load(find_project_root(global.root))));
  }
  const auto hits = index.search(opt.query, opt.k, http.get());
  if (opt.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& h : hits) {
      const idea_pool::Thought* t = find_thought(pool, h.entry.thought);
      std::string code;
      if (t) {
        for (const auto& e : t->examples) {
          if (e.commit == h.entry.commit && e.file == h.entry.file) code = e.code;
        }
      }
      out.push_back({{"thought", h.entry.thought},
                     {"description", t ? t->description : ""},
                     {"commit", h.entry.commit},
                     {"file", h.entry.file},
                     {"score", h.score},
                     {"code", code}});
    }
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return 0;
  }
  std::printf("%zu examples closest to \"%s\" (index: %zu examples, %s)\n\n", hits.size(), opt.query.c_str(),
              index.size(), index.embedder_name().c_str());
  for (const auto& h : hits) {
    const idea_pool::Thought* t = find_thought(pool, h.entry.thought);
    std::printf("%.3f  %-8s %.10s %s\n       %s\n", h.score, h.entry.thought.c_str(), h.entry.commit.c_str(),
                h.entry.file.c_str(), t ? t->description.c_str() : "(thought not in the pool: mine it again)");
  }
  return 0;
}

int run_ideas(const IdeasOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  std::filesystem::path file = opt.pool;
  if (file.empty()) {
    file = idea_pool::latest_pool_path(Workspace::open().root());
    if (!std::filesystem::exists(file))
      throw NotFoundError(
          "no mined pool in the workspace yet: eok mine --repo OpenBLAS writes one, or pass --pool FILE");
  }
  const idea_pool::IdeaPool pool = idea_pool::load_pool(file);
  if (!opt.query.empty()) return run_query(opt, global, pool, file);
  if (opt.json) {
    auto doc = nlohmann::json::parse(idea_pool::pool_to_json(pool));
    if (!opt.idea.empty()) {
      for (const auto& i : doc["ideas"]) {
        if (i["id"] == opt.idea) doc["ideas"] = nlohmann::json::array({i});
      }
    }
    std::cout << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return 0;
  }
  std::printf("pool %s: %zu ideas, %zu thoughts%s\n\n", file.c_str(), pool.ideas.size(), pool.thought_count(),
              pool.description.empty() ? "" : (" (" + pool.description + ")").c_str());
  bool found = opt.idea.empty();
  for (const auto& idea : pool.ideas) {
    if (!opt.idea.empty() && idea.id != opt.idea) continue;
    found = true;
    std::printf("%s  %+.1f%%  %s\n", idea.id.c_str(), 100 * idea.effectiveness, idea.principle.c_str());
    for (const auto& t : idea.thoughts) {
      std::printf("  %-8s %+6.1f%% %-9s %3zu commits  %s\n", t.id.c_str(), 100 * t.effectiveness,
                  t.estimated ? "estimated" : "measured", t.commits.size(), t.description.c_str());
      if (!opt.idea.empty() || opt.examples) {
        for (size_t c = 0; c < t.commits.size() && c < 3; ++c) {
          std::printf("             %.10s %s\n", t.commits[c].sha.c_str(), t.commits[c].title.c_str());
        }
        if (opt.examples && !t.examples.empty()) {
          std::printf("             example (%s):\n", t.examples[0].file.c_str());
          const std::string& code = t.examples[0].code;
          std::printf("%s\n", code.substr(0, 800).c_str());
        }
      }
    }
    std::printf("\n");
  }
  if (!found) throw NotFoundError("no idea " + opt.idea + " in " + file.string());
  return 0;
}

}  // namespace

void add_ideas_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opt = std::make_shared<IdeasOptions>();
  CLI::App* cmd = app.add_subcommand(
      "ideas",
      "Browse an idea pool (the workspace's latest mined pool by default): every idea with\n"
      "its principle and effectiveness, its thoughts with effectiveness (measured or\n"
      "estimated) and commit counts. --idea ID shows one with example commits; --query TEXT finds the\n"
      "example code closest to a text (what the search retrieves into prompts).");
  cmd->add_option("--pool", opt->pool, "pool JSON file (default: the workspace's pools/latest.json)");
  cmd->add_option("--idea", opt->idea, "show only this idea, with its example commits");
  cmd->add_flag("--examples", opt->examples, "show example commits and code for every thought");
  cmd->add_option("--query", opt->query, "find the example code closest to this text (the pool's example index)");
  cmd->add_option("--k", opt->k, "how many examples --query shows")->capture_default_str();
  cmd->add_flag("--json", opt->json, "print the pool (or the one idea) as JSON");
  cmd->callback([opt, &global, &exit_code] { exit_code = run_ideas(*opt, global); });
}

}  // namespace eok::cli
