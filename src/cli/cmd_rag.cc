// eok rag: build and query the document index that search prompts draw RISC-V reference material from.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "rag/doc_index.h"
#include "src/cli/cli.h"
#include "src/common/error.h"
#include "src/common/log.h"
#include "src/common/paths.h"
#include "src/common/progress_bar.h"

namespace eok::cli {

namespace {

namespace fs = std::filesystem;

struct RagOptions {
  std::vector<std::string> docs;
  std::string name = "default", query;
  size_t k = 5;
  bool rebuild = false, no_default_corpus = false, json = false;
};

int run_build(const RagOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  const fs::path root = find_project_root(global.root);
  std::vector<fs::path> inputs;
  if (!opt.no_default_corpus) inputs.push_back(root / "rag" / "corpus");
  for (const auto& d : opt.docs) inputs.push_back(d);
  const fs::path dir = Workspace::open().rag_dir() / opt.name;
  // An update keeps what the index held: the folders given to an earlier build stay unless --rebuild.
  if (!opt.rebuild) {
    auto same = [](const fs::path& a, const fs::path& b) {
      std::error_code ec;
      return fs::equivalent(a, b, ec);
    };
    for (const auto& before : rag::DocIndex::indexed_inputs(dir)) {
      if (std::any_of(inputs.begin(), inputs.end(), [&](const fs::path& p) { return same(p, before); })) continue;
      if (!fs::exists(before)) {
        log::warn("{} was indexed before and is gone: its documents leave the index", before.string());
        continue;
      }
      log::info("keeping {} (indexed before; --rebuild indexes only what this command names)", before.string());
      inputs.push_back(before);
    }
  }
  if (inputs.empty()) throw ConfigError("nothing to index: drop --no-default-corpus or add --docs DIR");
  rag::DocIndexOptions options;
  options.rebuild = opt.rebuild;
  std::unique_ptr<ProgressBar> bar;
  std::string stage;
  const bool terminal = isatty(STDERR_FILENO) != 0;
  options.progress = [&](const std::string& s, size_t done, size_t total) {
    if (s != stage) {
      bar = std::make_unique<ProgressBar>("[" + s + "]", static_cast<int64_t>(total), terminal);
      stage = s;
    }
    bar->update(static_cast<int64_t>(done), static_cast<int64_t>(total));
  };
  const rag::DocBuildReport r = rag::DocIndex::build(inputs, dir, options);
  bar.reset();
  if (opt.json) {
    nlohmann::json j = {{"index", dir.string()},
                        {"files", r.files},
                        {"files_reused", r.files_reused},
                        {"files_chunked", r.files_chunked},
                        {"files_skipped", r.files_skipped},
                        {"files_removed", r.files_removed},
                        {"chunks", r.chunks},
                        {"chunks_embedded", r.chunks_embedded},
                        {"refitted", r.refitted},
                        {"embedder", r.embedder},
                        {"index_kind", r.index_kind},
                        {"seconds", r.seconds},
                        {"skipped", r.skipped}};
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return 0;
  }
  std::printf("index    %s (%s vectors, %s)\n", dir.c_str(), r.index_kind.c_str(), r.embedder.c_str());
  std::printf(
      "files    %zu: %zu read and chunked, %zu unchanged since the last build, %zu skipped (empty, binary or not "
      "readable), %zu removed\n",
      r.files, r.files_chunked, r.files_reused, r.files_skipped, r.files_removed);
  std::printf("chunks   %zu, %zu embedded now%s\n", r.chunks, r.chunks_embedded,
              r.refitted ? " (embedder fitted anew)" : "");
  std::printf("time     %.1f s\n", r.seconds);
  std::printf("next     eok rag query \"vfredosum ordered reduction\" | eok search --task mish (uses it)\n");
  return 0;
}

int run_query(const RagOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  const rag::DocIndex index = rag::DocIndex::load(Workspace::open().rag_dir() / opt.name);
  const auto hits = index.query(opt.query, opt.k);
  if (opt.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& h : hits) {
      out.push_back({{"source", h.chunk.source},
                     {"section", h.chunk.section},
                     {"line", h.chunk.line},
                     {"score", h.score},
                     {"vector_score", h.vector_score},
                     {"lexical_score", h.lexical_score},
                     {"text", h.chunk.text}});
    }
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return 0;
  }
  for (size_t i = 0; i < hits.size(); ++i) {
    const auto& h = hits[i];
    std::printf("%zu. %s:%zu  %s  (score %.4f)\n", i + 1, h.chunk.source.c_str(), h.chunk.line, h.chunk.section.c_str(),
                h.score);
    std::string text = h.chunk.text.substr(0, 400);
    std::printf("   %s%s\n\n", text.c_str(), h.chunk.text.size() > 400 ? " [...]" : "");
  }
  if (hits.empty()) std::printf("no match\n");
  return 0;
}

}  // namespace

void add_rag_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opt = std::make_shared<RagOptions>();
  CLI::App* cmd =
      app.add_subcommand("rag", "Build and query the document index that search prompts draw reference material from.");
  cmd->require_subcommand(1);
  CLI::App* build = cmd->add_subcommand(
      "build",
      "Index documents for retrieval: the team's notes in rag/corpus/ (RVV programming, the K1/X60's costs) and\n"
      "every --docs folder (AsciiDoc, Markdown, text, C/C++; e.g. the RVV spec and the intrinsics docs). Chunks\n"
      "follow section headings and keep listings and tables whole; they are embedded offline (TF-IDF + SVD) into\n"
      "a FAISS index in the workspace (rag/NAME/), next to a BM25 index for exact names. A rebuild reads only\n"
      "the files that changed.\n\n"
      "Example: eok rag build --docs ~/riscv-v-spec ~/rvv-intrinsic-doc");
  build->add_option("--docs", opt->docs, "folders (or files) to index besides rag/corpus/")->check(CLI::ExistingPath);
  build->add_option("--name", opt->name, "index name (eok search uses 'default')")->capture_default_str();
  build->add_flag("--rebuild", opt->rebuild, "index everything again, ignoring what was built before");
  build->add_flag("--no-default-corpus", opt->no_default_corpus, "leave out rag/corpus/");
  build->add_flag("--json", opt->json, "print the build report as JSON");
  build->callback([opt, &global, &exit_code] { exit_code = run_build(*opt, global); });

  CLI::App* query =
      cmd->add_subcommand("query", "The passages of the index best matching a text: eok rag query \"vfredosum\" --k 3");
  query->add_option("text", opt->query, "what to look for: a question, a mnemonic, an intrinsic name")->required();
  query->add_option("--k", opt->k, "how many passages")->capture_default_str();
  query->add_option("--name", opt->name, "index name")->capture_default_str();
  query->add_flag("--json", opt->json, "print hits as JSON: source, section, score, text");
  query->callback([opt, &global, &exit_code] { exit_code = run_query(*opt, global); });
}

}  // namespace eok::cli
