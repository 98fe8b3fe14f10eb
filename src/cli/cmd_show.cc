// eok show: one kernel in full: source, idea, lineage, diffs against its parent and ker0, evidence.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "src/cli/cli.h"
#include "src/common/error.h"
#include "src/common/log.h"
#include "src/common/paths.h"
#include "src/common/terminal_text.h"
#include "src/common/text_diff.h"
#include "src/db/kernel_db.h"

namespace eok::cli {

namespace {

struct ShowOptions {
  int64_t id = 0;
  int64_t call = 0;
  bool json = false, context = false;
};

// One LLM call as it happened: what was asked (every message in full), what came back, what became of it.
int show_call(db::KernelDb& db, const ShowOptions& opt) {
  const auto c = db.get_llm_call(opt.call);
  if (!c)
    throw NotFoundError("no LLM call #" + std::to_string(opt.call) +
                        " in the database (eok show KERNEL names the call of a kernel)");
  auto messages = nlohmann::json::parse(c->messages_json.empty() ? "[]" : c->messages_json, nullptr, false);
  if (messages.is_discarded()) messages = nlohmann::json::array();
  if (opt.json) {
    nlohmann::json j = {{"id", c->id},
                        {"run", c->run_id},
                        {"operator", c->op},
                        {"model", c->model},
                        {"ok", c->ok},
                        {"error", c->error},
                        {"prompt_tokens", c->prompt_tokens},
                        {"completion_tokens", c->completion_tokens},
                        {"latency_seconds", c->latency_seconds},
                        {"cost", c->cost},
                        {"cache_hit", c->cache_hit},
                        {"attempts", c->attempts},
                        {"kernel_id", c->kernel_id ? nlohmann::json(*c->kernel_id) : nlohmann::json(nullptr)},
                        {"messages", messages},
                        {"reply", c->reply},
                        {"retrieved_context", c->retrieved_context}};
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return 0;
  }
  const std::string outcome = !c->error.empty() ? terminal_safe(c->error)
                              : c->kernel_id    ? "kernel #" + std::to_string(*c->kernel_id)
                                                : std::string("ok");
  std::printf("llm call #%lld  run %s  operator %s  model %s%s\n", static_cast<long long>(c->id), c->run_id.c_str(),
              c->op.c_str(), terminal_safe(c->model).c_str(), c->cache_hit ? "  (answered from the cache)" : "");
  std::printf("outcome %s\n", outcome.c_str());
  std::printf("tokens  %lld in, %lld out; %.1f s, %d attempt(s), cost %.4f\n", static_cast<long long>(c->prompt_tokens),
              static_cast<long long>(c->completion_tokens), c->latency_seconds, c->attempts, c->cost);
  if (messages.empty())
    std::printf("\nprompt  not on record (the call was recorded by an eok before schema version 3)\n");
  for (const auto& m : messages) {
    std::printf("\n===== %s =====\n%s\n", m.value("role", "?").c_str(), terminal_safe(m.value("content", "")).c_str());
  }
  std::printf("\n===== reply =====\n%s\n", c->reply.empty()
                                               ? "(none: the call failed or its reply predates schema version 3)"
                                               : terminal_safe(c->reply).c_str());
  return 0;
}

int run_show(const ShowOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  auto db = open_kernel_db_for_reading(Workspace::open());
  if (opt.call > 0) return show_call(*db, opt);
  if (opt.id <= 0) throw ConfigError("eok show needs a kernel id (eok show 12) or --call N (eok show --call 3)");
  auto k = db->get_kernel(opt.id);
  if (!k)
    throw NotFoundError("no kernel #" + std::to_string(opt.id) + " in the database (eok kernels --task T lists them)");
  auto e = db->get_evaluation(k->id);
  // Lineage: follow first parents back to ker0.
  std::vector<db::KernelRecord> lineage;
  for (auto p = *k; !p.parents.empty() && lineage.size() < 64;) {
    auto parent = db->get_kernel(p.parents.front());
    if (!parent) break;
    lineage.push_back(*parent);
    p = *parent;
  }
  auto ker0 = db->find_ker0(k->task, k->board);
  const std::string vs_parent =
      lineage.empty() ? ""
                      : unified_diff(lineage.front().source, k->source, "kernel #" + std::to_string(lineage.front().id),
                                     "kernel #" + std::to_string(k->id));
  const std::string vs_ker0 = ker0 ? unified_diff(ker0->source, k->source, "ker0 (#" + std::to_string(ker0->id) + ")",
                                                  "kernel #" + std::to_string(k->id))
                                   : "";
  // The LLM call whose reply became this kernel, with what retrieval showed the model.
  std::optional<db::LlmCallRecord> call;
  if (!k->run_id.empty()) {
    for (auto& c : db->llm_calls(k->run_id)) {
      if (c.kernel_id && *c.kernel_id == k->id) call = std::move(c);
    }
  }
  auto evidence =
      e ? nlohmann::json::parse(e->evidence_json.empty() ? "{}" : e->evidence_json, nullptr, false) : nlohmann::json();
  if (opt.json) {
    nlohmann::json j = {{"id", k->id},
                        {"task", k->task},
                        {"board", k->board},
                        {"run", k->run_id},
                        {"hash", k->hash},
                        {"operator", k->op},
                        {"idea", k->description},
                        {"idea_id", k->idea_id},
                        {"thought_id", k->thought_id},
                        {"parents", k->parents},
                        {"source", k->source},
                        {"diff_parent", vs_parent},
                        {"diff_ker0", vs_ker0}};
    nlohmann::json chain = nlohmann::json::array();
    for (const auto& l : lineage) chain.push_back({{"id", l.id}, {"operator", l.op}, {"idea", l.description}});
    j["lineage"] = chain;
    if (e) {
      j["evaluation"] = {{"status", status_name(e->status)},
                         {"message", e->message},
                         {"cycles", e->cycles ? nlohmann::json(*e->cycles) : nlohmann::json(nullptr)},
                         {"speedup", e->speedup ? nlohmann::json(*e->speedup) : nlohmann::json(nullptr)},
                         {"seed", e->seed},
                         {"evidence", evidence.is_discarded() ? nlohmann::json(nullptr) : evidence}};
    }
    if (call)
      j["llm_call"] = {{"id", call->id}, {"model", call->model}, {"retrieved_context", call->retrieved_context}};
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return 0;
  }
  std::printf("kernel #%lld  task %s  board %s  run %s  operator %s\n", static_cast<long long>(k->id), k->task.c_str(),
              k->board.c_str(), k->run_id.empty() ? "(shared)" : k->run_id.c_str(), k->op.c_str());
  std::printf("idea    %s\n", terminal_safe(k->description).c_str());
  if (!k->idea_id.empty())
    std::printf("from    idea %s%s\n", k->idea_id.c_str(),
                k->thought_id.empty() ? "" : (", thought " + k->thought_id).c_str());
  if (e) {
    std::printf("status  %s: %s\n", status_name(e->status), e->message.c_str());
    if (e->speedup)
      std::printf("cycles  %s modeled, %.3fx ker0\n", with_commas(e->cycles.value_or(0)).c_str(), *e->speedup);
  } else {
    std::printf("status  not evaluated\n");
  }
  if (call) {
    std::printf("llm     call #%lld (eok show --call %lld: its prompt and reply), model %s; retrieved context: %s\n",
                static_cast<long long>(call->id), static_cast<long long>(call->id), call->model.c_str(),
                call->retrieved_context.empty() ? "none"
                                                : (with_commas(static_cast<double>(call->retrieved_context.size())) +
                                                   " characters" + (opt.context ? " (below)" : " (--context shows it)"))
                                                      .c_str());
  }
  std::printf("lineage #%lld", static_cast<long long>(k->id));
  for (const auto& l : lineage) std::printf(" <- #%lld (%s)", static_cast<long long>(l.id), l.op.c_str());
  std::printf("\n\nsource:\n%s\n", k->source.c_str());
  if (!vs_parent.empty()) std::printf("against its parent:\n%s\n", vs_parent.c_str());
  if (!vs_ker0.empty() && (lineage.empty() || lineage.front().op != "ker0"))
    std::printf("against ker0:\n%s\n", vs_ker0.c_str());
  if (call && opt.context && !call->retrieved_context.empty())
    std::printf("retrieved context:\n%s\n", call->retrieved_context.c_str());
  if (e && e->status != EvalStatus::ok && !evidence.is_discarded() && evidence.contains("evidence")) {
    std::printf("evidence:\n%s\n",
                evidence["evidence"].dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  }
  return 0;
}

}  // namespace

void add_show_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opt = std::make_shared<ShowOptions>();
  CLI::App* cmd =
      app.add_subcommand("show",
                         "Show one kernel: its source, idea, lineage back to ker0, the diff against its parent\n"
                         "and against ker0, and the evidence of its evaluation. `eok show --call N` shows\n"
                         "one LLM call: its full prompt and the model's reply.");
  cmd->add_option("kernel_id", opt->id, "kernel id, as eok kernels and eok leaderboard print it");
  cmd->add_option(
      "--call", opt->call,
      "show LLM call N instead: every message of its prompt in full, the reply as received, tokens and outcome");
  cmd->add_flag("--json", opt->json, "print it as JSON");
  cmd->add_flag("--context", opt->context, "also print what retrieval put into the prompt that produced it");
  cmd->callback([opt, &global, &exit_code] { exit_code = run_show(*opt, global); });
}

}  // namespace eok::cli
