#include "src/search/llm_generator.h"
#include "src/common/clock.h"

#include "src/search/rag_mode.h"

#include <cctype>
#include <chrono>

#include "idea_pool/distiller.h"
#include "idea_pool/example_code.h"
#include "src/common/hash.h"
#include "src/common/log.h"
#include "src/search/kernel_brief.h"
#include "src/search/proposal.h"
#include "src/search/task_brief.h"

namespace eok::search {

namespace {

constexpr size_t kContextTokens = 1500;

std::string board_line(const evaluator::BoardProfile& b) {
  return b.description + "; VLEN " + std::to_string(b.vlen) + ", in-order dual-issue X60 cores with separate vector " +
         "FP, vector integer and vector load/store pipes; cycles are modeled from measured X60 figures";
}

constexpr size_t kExampleChars = 1500;

// A thought's example changes, the most useful to RVV C first, cleaned (changed hunks with context, no
// licence headers); at most `count` of them.
std::vector<std::string> example_texts(const idea_pool::Thought& t, size_t count) {
  std::vector<std::string> out;
  for (const idea_pool::CodeExample* e : idea_pool::examples_by_relevance(t)) {
    if (out.size() == count) break;
    const std::string code = idea_pool::clean_example_code(e->code, kExampleChars);
    if (!code.empty()) out.push_back((e->file.empty() ? std::string() : "(" + e->file + ")\n") + code);
  }
  return out;
}

// A thought as the prompt states it. An extractive pool's thought is a commit title, not a written step:
// the model is told so, and to work the step out from the example.
std::string thought_text(const idea_pool::Thought& t) {
  const std::string prefix = idea_pool::kExtractivePrefix;
  if (!t.description.starts_with(prefix)) return t.description;
  return "(a change in the library's history, known only by its title, mined without an LLM: work out the step "
         "from the title and the example) " +
         t.description.substr(prefix.size());
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += p + "\n";
  return out;
}

}  // namespace

const std::vector<std::string>& LlmGenerator::placeholders() {
  static const std::vector<std::string> names = {
      "board",   "march",     "signature", "tolerance", "task_name", "task_id",  "timed_sizes",   "parent",
      "parents", "principle", "thought",   "examples",  "context",   "feedback", "specification", "inputs"};
  return names;
}

const std::vector<std::string>& LlmGenerator::required_prompts() {
  static const std::vector<std::string> names = {"system", "init", "i1", "e1", "e2", "m1", "m2", "m3"};
  return names;
}

std::string request_identity(const llm::ChatRequest& req) {
  Hasher h;
  for (const auto& m : req.messages) h.add(m.role).add(m.content);
  h.add(std::to_string(req.temperature)).add(std::to_string(req.max_tokens)).add(std::to_string(req.seed.value_or(0)));
  return h.hex();
}

LlmGenerator::LlmGenerator(llm::Llm& llm, const llm::PromptLibrary& prompts, rag::Retriever& retriever,
                           db::KernelDb& db, const evaluator::Task& task, const evaluator::BoardProfile& board,
                           std::string run_id, const SearchSettings& settings)
    : llm_(llm),
      prompts_(prompts),
      retriever_(retriever),
      db_(db),
      task_(task),
      board_(board),
      run_id_(std::move(run_id)),
      settings_(settings),
      specification_(task_specification(task)) {
  for (auto& call : db_.llm_calls(run_id_)) recorded_[call.request_hash] = call;
}

llm::ChatRequest LlmGenerator::build_request(const ProposalRequest& req, std::string* context) const {
  llm::PromptValues v;
  v["board"] = board_line(board_);
  v["march"] = task_.march;
  v["signature"] = task_.signature;
  v["tolerance"] = task_tolerance(task_);
  v["specification"] = specification_;
  v["inputs"] = task_inputs(task_);
  v["task_name"] = task_.name;
  v["task_id"] = task_.id;
  v["timed_sizes"] = evaluator::format_sizes(task_.timed);
  if (!req.parents.empty()) v["parent"] = kernel_brief(req.parents.front(), true);
  std::string parents;
  for (size_t i = 0; i < req.parents.size(); ++i) {
    parents += "Kernel " + std::to_string(i + 1) + ":\n" + kernel_brief(req.parents[i], false) + "\n";
  }
  v["parents"] = parents;
  if (req.idea) v["principle"] = req.idea->principle;
  if (req.thought) v["thought"] = thought_text(*req.thought);
  // Example code is retrieval too: the paper's "no RAG" and "docs only" variants go without it.
  if (uses_code(settings_.rag) && req.thought) v["examples"] = joined(example_texts(*req.thought, 2));
  v["feedback"] = req.feedback;

  rag::RetrievalQuery q;
  q.strategy = req.op;
  for (const auto& p : req.parents) {
    q.descriptions.push_back(p.kernel.description);
    q.code.push_back(p.kernel.source);
  }
  if (req.thought)
    q.thought = req.thought->description;
  else if (req.idea)
    q.thought = req.idea->principle;
  // The paper retrieves with the thought's example code: an init prompt shows it already, the later
  // operators of an idea-seeded search get its thoughts' examples as retrieved code.
  if (req.idea && !req.thought && uses_code(settings_.rag)) {
    for (const auto& t : req.idea->thoughts) {
      for (auto& e : example_texts(t, 1))
        q.thought_examples.push_back("Example change for the idea \"" + t.description.substr(0, 200) + "\":\n" + e);
    }
  }
  std::string ctx;
  for (const auto& r : retriever_.retrieve(q, kContextTokens)) ctx += r.text + "\n";
  v["context"] = ctx;
  *context = ctx;

  std::string name = req.op;
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  llm::ChatRequest chat;
  chat.messages = {{"system", prompts_.render("system", v)}, {"user", prompts_.render(name, v)}};
  chat.temperature = settings_.llm_temperature;
  chat.max_tokens = settings_.llm_max_tokens;
  chat.seed = req.seed;
  chat.purpose = req.op;
  return chat;
}

GeneratedKernel LlmGenerator::propose(const ProposalRequest& req) {
  GeneratedKernel g;
  db::LlmCallRecord rec;
  rec.run_id = run_id_;
  rec.op = req.op;
  const llm::ChatRequest chat = build_request(req, &rec.retrieved_context);
  rec.request_hash = request_identity(chat);
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& m : chat.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  rec.messages_json = messages.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = recorded_.find(rec.request_hash);
    if (it != recorded_.end() && !it->second.ok) {
      // Recorded as failed before this run was resumed: the same outcome, without sending it again.
      g.reason = it->second.error;
      g.llm_call_id = it->second.id;
      g.called = true;
      g.cache_hit = true;
      return g;
    }
  }
  const llm::ChatResponse resp = llm_.chat(chat);
  if (resp.error == llm::ChatError::cancelled) {
    // Interrupted mid-call: nothing is recorded, so a resumed run sends the request again.
    g.reason = resp.message;
    g.stop_run = true;
    return g;
  }
  g.called = resp.error != llm::ChatError::budget;
  g.call_ok = resp.ok;
  g.cache_hit = resp.cache_hit;
  rec.model = resp.model;
  rec.prompt_tokens = resp.usage.prompt_tokens;
  rec.completion_tokens = resp.usage.completion_tokens;
  rec.latency_seconds = resp.latency_seconds;
  rec.cost = resp.cost;
  rec.cache_hit = resp.cache_hit;
  rec.attempts = resp.attempts;
  rec.created_at = unix_seconds();
  if (!resp.ok) {
    rec.error = std::string(llm::chat_error_name(resp.error)) + ": " + resp.message;
    g.stop_run = resp.error == llm::ChatError::budget || resp.error == llm::ChatError::cache_miss;
  } else {
    const Proposal p = parse_proposal(resp.content, task_.entry);
    rec.ok = true;
    rec.reply = resp.content;
    if (!p.ok) {
      rec.error = "unusable reply: " + p.reason;
    } else {
      g.ok = true;
      g.source = p.code;
      g.idea = p.idea;
    }
  }
  g.reason = rec.error;
  if (resp.error == llm::ChatError::budget) return g;  // nothing was sent: nothing to record
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = recorded_.find(rec.request_hash);
  if (it != recorded_.end()) {
    g.llm_call_id = it->second.id;  // resumed: this call is on record already
  } else {
    g.llm_call_id = db_.insert_llm_call(rec);
    rec.id = g.llm_call_id;
    recorded_[rec.request_hash] = rec;
  }
  return g;
}

void LlmGenerator::attach(int64_t llm_call_id, int64_t kernel_id) {
  if (llm_call_id > 0) db_.set_llm_call_kernel(llm_call_id, kernel_id);
}

}  // namespace eok::search
