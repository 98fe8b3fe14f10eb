// eok search with an OpenAI-compatible LLM, against a fake server on 127.0.0.1 scripted to answer with
// good, broken, wrong and hostile kernels, no code, errors, stalls, truncated and huge replies.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "rag/doc_index.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/search/llm_generator.h"
#include "src/search/search_run.h"
#include "support/board_fixture.h"
#include "support/fake_openai_server.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

std::string fenced(const std::string& idea, const std::string& code) {
  return "Idea: " + idea + "\n```c\n" + code + "\n```\n";
}

// Answers by the request's seed, so the same request always gets the same reply (a resumed run retraces).
FakeReply scripted_reply(const RecordedRequest& req, bool mostly_failing) {
  const auto body = req.json();
  const uint64_t seed = body.value("seed", uint64_t{0});
  if (mostly_failing && seed % 5 != 0) {
    switch (seed % 3) {
      case 0:
        return FakeReply::http_status(500, "{\"error\": \"overloaded\"}");
      case 1:
        return FakeReply::http_status(429, "{\"error\": \"slow down\"}", {{"Retry-After", "0"}});
      default:
        return FakeReply::stall(3);
    }
  }
  switch (seed % 12) {
    case 0:
      return FakeReply::completion(fenced("strip-mined vfmax at LMUL 1", read_fixture("candidates/relu_m1.c")));
    case 1:
      return FakeReply::completion(fenced("strip-mined vfmax at LMUL 8", read_fixture("candidates/relu_m8.c")));
    case 2:
      return FakeReply::completion(fenced("broken", read_fixture("candidates/relu_no_compile.c")));
    case 3:
      return FakeReply::completion(fenced("clamp", read_fixture("candidates/relu_wrong.c")));
    case 4:
      return FakeReply::completion(fenced("read a file too", read_fixture("candidates/relu_syscall.c")));
    case 5:
      return FakeReply::completion("I would rather not write code today.");
    case 6:
      return FakeReply::http_status(500, "{\"error\": \"internal\"}");
    case 7:
      return FakeReply::http_status(429, "{\"error\": \"rate\"}", {{"Retry-After", "0"}});
    case 8:
      return FakeReply::truncated_json();
    case 9:
      return FakeReply::huge(5u << 20);
    case 10:
      return FakeReply::completion(fenced("scalar", read_fixture("candidates/relu_scalar.c")));
    default:
      return FakeReply::completion(fenced("two strips", read_fixture("candidates/relu_m4.c")));
  }
}

class SearchWithLlm : public ::testing::Test {
 protected:
  void SetUp() override { home_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-llm-search-"); }

  Config config() {
    Config c = Config::load(source_root());
    c.set("llm.base_url", server_.base_url());
    c.set("llm.model", "fake-coder");
    c.set("llm.timeout_seconds", "1");
    c.set("llm.max_retries", "1");
    c.set("llm.backoff_initial_seconds", "0.01");
    c.set("llm.backoff_max_seconds", "0.05");
    c.set("search.iterations", "1");
    c.set("search.parallel", "2");
    c.set("search.population", "3");
    c.set("search.generations", "1");
    c.set("search.seed", "11");
    return c;
  }
  search::SearchRequest request(const Config& c) {
    search::SearchRequest r{source_root(), Workspace::open(home_->path())};
    r.task = "relu_f32";
    r.config = c;
    return r;
  }

  FakeOpenAiServer server_;
  std::unique_ptr<TempDir> home_;
};

TEST_F(SearchWithLlm, EveryProposalIsRecordedWithItsOutcomeAndTheBestIsCorrect) {
  server_.set_responder([](const RecordedRequest& r) { return scripted_reply(r, false); });
  search::SearchRequest req = request(config());
  const search::SearchOutcome o = search::run_search(req);
  EXPECT_EQ(o.state, db::RunState::finished) << o.stop_reason;
  EXPECT_EQ(o.method, db::SearchMethod::eoh);  // an LLM and no idea pool

  auto db = db::KernelDb::open(req.workspace.database_path());
  const auto calls = db->llm_calls(o.run_id);
  EXPECT_EQ(static_cast<int64_t>(calls.size()), 2 * (3 + 5));  // every proposal asked the LLM once
  std::set<std::string> reasons;
  for (const auto& c : calls) {
    if (!c.error.empty()) reasons.insert(c.error.substr(0, c.error.find(':')));
    if (c.ok && c.error.empty()) {
      EXPECT_TRUE(c.kernel_id.has_value()) << "a usable reply must be linked to its kernel";
    }
  }
  std::map<std::string, int> statuses;
  std::set<std::string> hashes;
  for (const auto& row : db->kernels("relu_f32", o.run_id)) {
    ASSERT_TRUE(row.evaluation) << "kernel #" << row.kernel.id << " was never evaluated";
    statuses[status_name(row.evaluation->status)]++;
    EXPECT_TRUE(hashes.insert(row.kernel.hash).second) << "kernel recorded twice in one run";
  }
  std::string seen;
  for (const auto& r : reasons) seen += r + "; ";
  for (const auto& [s, n] : statuses) seen += s + "=" + std::to_string(n) + " ";
  // The run met failures of every kind and kept going.
  EXPECT_GE(statuses["ok"], 1) << seen;
  EXPECT_GE(statuses["compile_error"] + statuses["wrong_answer"] + statuses["rejected"], 1) << seen;
  EXPECT_GE(reasons.size(), 2u) << seen;
  // The answer is a correct kernel.
  auto best = db->get_evaluation(o.best_kernel_id);
  ASSERT_TRUE(best);
  EXPECT_EQ(best->status, EvalStatus::ok);
  // Prompts carried the task's signature and, for M operators, the parent's profile.
  bool saw_profile = false;
  for (const auto& r : server_.chat_requests()) {
    const std::string text = r.json()["messages"].dump();
    EXPECT_NE(text.find("void relu_f32(float *x, size_t n)"), std::string::npos);
    saw_profile |= text.find("Hottest block") != std::string::npos;
  }
  EXPECT_TRUE(saw_profile);

  // eok show --call N gives back exactly what was sent and what came back; the summary counts the
  // replies that held no usable kernel.
  const auto usable =
      std::find_if(calls.begin(), calls.end(), [](const db::LlmCallRecord& c) { return c.kernel_id.has_value(); });
  ASSERT_NE(usable, calls.end());
  const ProcessResult shown = run_eok({"show", "--call", std::to_string(usable->id), "--json"}, home_->path(), 60);
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  const auto j = nlohmann::json::parse(shown.out);
  bool sent = false;
  for (const auto& r : server_.chat_requests()) sent |= r.json()["messages"] == j["messages"];
  EXPECT_TRUE(sent) << "the recorded prompt is not one the server received:\n" << j["messages"].dump().substr(0, 400);
  EXPECT_NE(j.value("reply", "").find("```c"), std::string::npos) << shown.out.substr(0, 400);
  EXPECT_EQ(j["kernel_id"], *usable->kernel_id);
  const ProcessResult text = run_eok({"show", "--call", std::to_string(usable->id)}, home_->path(), 60);
  EXPECT_NE(text.out.find("===== system ====="), std::string::npos) << text.out.substr(0, 400);
  EXPECT_NE(text.out.find("===== reply ====="), std::string::npos);
  int64_t unusable = 0;
  for (const auto& c : calls) unusable += c.ok && c.error.rfind("unusable reply", 0) == 0;
  EXPECT_EQ(o.summary.value("unusable_replies", int64_t{-1}), unusable);
}

TEST_F(SearchWithLlm, AReasoningModelsAnswerAfterItsThinkingBecomesTheKernel) {
  // Every reply thinks first, with a broken draft that also defines the entry, then answers with LMUL 8.
  server_.set_responder([](const RecordedRequest&) {
    return FakeReply::completion("<think>A first try:\n```c\n" + read_fixture("candidates/relu_no_compile.c") +
                                 "\n```\nThat will not compile; LMUL 8 instead.</think>\n" +
                                 fenced("strip-mined vfmax at LMUL 8", read_fixture("candidates/relu_m8.c")));
  });
  search::SearchRequest req = request(config());
  const search::SearchOutcome o = search::run_search(req);
  EXPECT_EQ(o.state, db::RunState::finished) << o.stop_reason;
  auto db = db::KernelDb::open(req.workspace.database_path());
  for (const auto& c : db->llm_calls(o.run_id)) EXPECT_TRUE(c.error.empty()) << c.error;
  const auto kernels = db->kernels("relu_f32", o.run_id);
  ASSERT_FALSE(kernels.empty());
  for (const auto& row : kernels) {
    if (row.kernel.op == "ker0") continue;
    ASSERT_TRUE(row.evaluation);
    EXPECT_EQ(row.evaluation->status, EvalStatus::ok)
        << "the draft inside <think> was taken: " << row.evaluation->message;
    EXPECT_EQ(row.kernel.description, "strip-mined vfmax at LMUL 8");
  }
}

TEST_F(SearchWithLlm, WithAnIdeaPoolThoughtsSeedTheSearchAndEffectivenessIsUpdated) {
  server_.set_responder([](const RecordedRequest& r) { return scripted_reply(r, false); });
  Config c = config();
  c.set("search.pool", (fs::path(EOK_TEST_DATA_DIR) / "fixtures" / "pools" / "small_pool.json").string());
  search::SearchRequest req = request(c);
  const search::SearchOutcome o = search::run_search(req);
  EXPECT_EQ(o.method, db::SearchMethod::eok);
  EXPECT_EQ(o.state, db::RunState::finished);
  auto db = db::KernelDb::open(req.workspace.database_path());
  int with_thought = 0;
  for (const auto& row : db->kernels("relu_f32", o.run_id)) {
    if (row.kernel.op == "init") {
      EXPECT_FALSE(row.kernel.thought_id.empty());
      EXPECT_EQ(row.kernel.thought_id.rfind(row.kernel.idea_id + ".", 0), 0u) << "a thought of the search's idea";
      ++with_thought;
    }
  }
  EXPECT_GT(with_thought, 0);
  const auto updates = db->idea_updates(o.run_id);
  EXPECT_FALSE(updates.empty());
  for (const auto& u : updates) EXPECT_NE(u.before, u.after) << u.idea_id;
  // The initial prompts apply a thought of the pool, with its idea's principle.
  bool saw_thought = false;
  for (const auto& r : server_.chat_requests()) {
    const std::string text = r.json()["messages"].dump();
    saw_thought |=
        text.find("Concrete step:") != std::string::npos && text.find("General principle:") != std::string::npos;
  }
  EXPECT_TRUE(saw_thought);
}

// --rag: the documents' passages go into every prompt and are recorded with the call; --rag none sends
// neither passages nor the pool's example code (the paper's Table 5 variants).
TEST_F(SearchWithLlm, RetrievedContextReachesThePromptsAndIsRecorded) {
  server_.set_responder([](const RecordedRequest& r) { return scripted_reply(r, false); });
  const Workspace ws = Workspace::open(home_->path());
  const fs::path docs = home_->path() / "notes";
  fs::create_directories(docs);
  write_file_atomic(docs / "relu.md",
                    "# Max\n\n## vfmax with a scalar\n\nvfmax.vf takes the maximum of each element and a "
                    "scalar: relu is vfmax with 0.0 at LMUL 8 for a memory-bound loop.\n");
  rag::DocIndex::build({docs}, ws.rag_dir() / "notes");
  Config c = config();
  c.set("search.pool", (fs::path(EOK_TEST_DATA_DIR) / "fixtures" / "pools" / "small_pool.json").string());
  c.set("search.rag", "docs");
  c.set("search.rag_index", "notes");
  search::SearchRequest req = request(c);
  const search::SearchOutcome o = search::run_search(req);
  EXPECT_EQ(o.state, db::RunState::finished);
  auto db = db::KernelDb::open(req.workspace.database_path());
  const auto calls = db->llm_calls(o.run_id);
  ASSERT_FALSE(calls.empty());
  for (const auto& call : calls)
    EXPECT_NE(call.retrieved_context.find("notes/relu.md"), std::string::npos) << call.retrieved_context;
  for (const auto& r : server_.chat_requests()) EXPECT_NE(r.body.find("vfmax.vf takes the maximum"), std::string::npos);

  // --rag none: no passage, and no example code of the pool's thoughts.
  const size_t before = server_.chat_requests().size();
  c.set("search.rag", "none");
  c.set("search.seed", "12");
  const search::SearchOutcome none = search::run_search(request(c));
  for (const auto& call : db->llm_calls(none.run_id)) EXPECT_TRUE(call.retrieved_context.empty());
  const auto requests = server_.chat_requests();
  for (size_t i = before; i < requests.size(); ++i) {
    EXPECT_EQ(requests[i].body.find("vfmax.vf takes the maximum"), std::string::npos);
    EXPECT_EQ(requests[i].body.find("Example of the step in that library"), std::string::npos);
  }
}

// A search that got no kernel from the LLM at all did not succeed: it ends failed, says what to check, and
// its exit code says so; an endpoint that does not answer is found before anything starts.
TEST_F(SearchWithLlm, ASearchWhereEveryCallFailedEndsFailedAndADeadEndpointIsFoundFirst) {
  server_.set_responder(
      [](const RecordedRequest&) { return FakeReply::http_status(502, "<html><body>Bad Gateway</body></html>"); });
  Config c = config();
  c.set("llm.max_retries", "0");
  search::SearchRequest req = request(c);
  const search::SearchOutcome o = search::run_search(req);
  EXPECT_EQ(o.state, db::RunState::failed);
  EXPECT_NE(o.stop_reason.find("every LLM call failed"), std::string::npos) << o.stop_reason;
  EXPECT_NE(o.stop_reason.find("eok doctor"), std::string::npos) << o.stop_reason;
  auto db = db::KernelDb::open(req.workspace.database_path());
  EXPECT_EQ(db->get_run(o.run_id)->state, db::RunState::failed);

  // Replies, but never a kernel: failed too.
  server_.set_responder([](const RecordedRequest&) { return FakeReply::completion("I cannot help with that."); });
  c.set("search.seed", "77");
  const search::SearchOutcome words = search::run_search(request(c));
  EXPECT_EQ(words.state, db::RunState::failed);
  EXPECT_NE(words.stop_reason.find("no reply of the LLM held a usable kernel"), std::string::npos) << words.stop_reason;

  // Nothing listens: refused before any run is recorded.
  int closed_port = 0;
  {
    FakeOpenAiServer gone;
    closed_port = gone.port();
  }
  Config dead = config();
  dead.set("llm.base_url", "http://127.0.0.1:" + std::to_string(closed_port) + "/v1");
  const size_t runs_before = db->list_runs().size();
  EXPECT_THROW(search::run_search(request(dead)), NotFoundError);
  EXPECT_EQ(db->list_runs().size(), runs_before) << "a run was recorded for an endpoint that does not answer";
}

TEST_F(SearchWithLlm, ServerFailingMostRequestsDoesNotStopTheRun) {
  server_.set_responder([](const RecordedRequest& r) { return scripted_reply(r, true); });
  search::SearchRequest req = request(config());
  const search::SearchOutcome o = search::run_search(req);
  EXPECT_EQ(o.state, db::RunState::finished);
  EXPECT_GT(o.totals.llm_failures, o.totals.llm_calls / 2);
  auto db = db::KernelDb::open(req.workspace.database_path());
  for (const auto& c : db->llm_calls(o.run_id)) {
    if (!c.ok) {
      EXPECT_FALSE(c.error.empty());
    }
  }
  EXPECT_EQ(db->get_evaluation(o.best_kernel_id)->status, EvalStatus::ok);
}

TEST_F(SearchWithLlm, BudgetStopsTheRunCleanly) {
  server_.set_responder([](const RecordedRequest& r) { return scripted_reply(r, false); });
  Config c = config();
  c.set("budget.max_llm_calls", "3");
  const search::SearchOutcome o = search::run_search(request(c));
  EXPECT_EQ(o.state, db::RunState::stopped);
  EXPECT_NE(o.stop_reason.find("budget"), std::string::npos) << o.stop_reason;
  EXPECT_LE(server_.chat_requests().size(), 3u + 1u);  // one more may have been in flight... never more
}

TEST_F(SearchWithLlm, ReplayRunsFromTheCacheAloneAndFailsClearlyOnAMiss) {
  server_.set_responder([](const RecordedRequest& r) { return scripted_reply(r, false); });
  const search::SearchOutcome first = search::run_search(request(config()));
  const size_t sent = server_.chat_requests().size();
  search::SearchRequest again = request(config());
  again.replay = true;
  const search::SearchOutcome replayed = search::run_search(again);
  EXPECT_EQ(server_.chat_requests().size(), sent) << "a replay must not send anything";
  EXPECT_EQ(replayed.best_cycles, first.best_cycles);
  Config other = config();
  other.set("search.seed", "12");  // other requests: nothing in the cache
  search::SearchRequest miss = request(other);
  miss.replay = true;
  const search::SearchOutcome o = search::run_search(miss);
  EXPECT_EQ(o.state, db::RunState::stopped);
  EXPECT_NE(o.stop_reason.find("cache"), std::string::npos) << o.stop_reason;

  // Cache entries garbled on disk (bytes that are not UTF-8 in their text): the replay goes on, and
  // nothing ends in an internal error.
  size_t garbled = 0;
  for (const auto& e : fs::recursive_directory_iterator(Workspace::open(home_->path()).llm_cache_dir())) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    std::string text = read_file(e.path());
    const size_t at = text.find("Idea:");
    if (at == std::string::npos) continue;
    text.replace(at, 5, "Id\xff\xfe:");
    write_file_atomic(e.path(), text);
    ++garbled;
  }
  ASSERT_GT(garbled, 0u);
  search::SearchRequest again_garbled = request(config());
  again_garbled.replay = true;
  EXPECT_NO_THROW({
    const search::SearchOutcome g = search::run_search(again_garbled);
    EXPECT_FALSE(g.run_id.empty()) << "an outcome, whatever the state";
  });
}

TEST_F(SearchWithLlm, ResumesAfterKillWithoutRepeatingRecordedWork) {
  // Slow replies keep the first process mid-run when it is killed.
  server_.set_responder([](const RecordedRequest& r) {
    FakeReply reply = scripted_reply(r, false);
    return reply.kind == FakeReply::Kind::completion ? std::move(reply).after(0.2) : reply;
  });
  std::vector<std::string> env = {"EOK_HOME=" + home_->path().string(),
                                  "EOK_LLM_BASE_URL=" + server_.base_url(),
                                  "EOK_LLM_MODEL=fake-coder",
                                  "EOK_LLM_TIMEOUT_SECONDS=1",
                                  "EOK_LLM_MAX_RETRIES=1",
                                  "EOK_LLM_BACKOFF_INITIAL_SECONDS=0.01",
                                  "EOK_LLM_BACKOFF_MAX_SECONDS=0.05",
                                  "EOK_SEARCH_ITERATIONS=2",
                                  "EOK_SEARCH_PARALLEL=2",
                                  "EOK_SEARCH_POPULATION=3",
                                  "EOK_SEARCH_GENERATIONS=1",
                                  "EOK_SEARCH_SEED=21"};
  if (const char* path = std::getenv("PATH")) env.push_back(std::string("PATH=") + path);
  const std::string eok = (fs::path(EOK_BINARY_DIR) / "eok").string();

  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::vector<char*> argv, envp;
    std::vector<std::string> args = {eok, "--log-level", "warn", "search", "--task", "relu_f32"};
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    chdir(source_root().c_str());
    execve(eok.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  // Kill it with SIGKILL once a few kernels are evaluated.
  const fs::path dbfile = Workspace::open(home_->path()).database_path();
  std::string run_id;
  int64_t evaluated_before_kill = 0;
  for (int i = 0; i < 600 && evaluated_before_kill < 4; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!fs::exists(dbfile)) continue;
    auto db = db::KernelDb::open(dbfile);
    auto runs = db->list_runs("relu_f32");
    if (runs.empty()) continue;
    run_id = runs.front().id;
    evaluated_before_kill = db->run_totals(run_id).evaluations;
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_FALSE(run_id.empty());
  ASSERT_GE(evaluated_before_kill, 1);
  auto db = db::KernelDb::open(dbfile);
  EXPECT_EQ(db->get_run(run_id)->state, db::RunState::running);  // killed: nobody could record otherwise
  const int64_t evaluations_at_kill = db->run_totals(run_id).evaluations;
  const auto calls_at_kill = db->llm_calls(run_id);
  const size_t requests_at_kill = server_.chat_requests().size();

  // Resumed the way a user does it (the same program: evaluations are comparable only within one setup).
  ProcessSpec again;
  again.argv = {eok, "--log-level", "warn", "search", "--resume", run_id, "--json"};
  again.env = env;
  again.cwd = source_root();
  again.limits.wall_seconds = 600;
  ProcessResult r = run_process(again);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["state"], "finished");
  EXPECT_EQ(summary["run"], run_id);
  const int64_t evaluated_by_resume = summary["evaluations_run"].get<int64_t>();

  // No kernel twice, every kernel evaluated once: the resumed process evaluated only the new ones.
  std::set<std::string> hashes;
  int64_t kernels = 0;
  for (const auto& row : db->kernels("relu_f32", run_id)) {
    EXPECT_TRUE(hashes.insert(row.kernel.hash).second);
    EXPECT_TRUE(row.evaluation.has_value());
    ++kernels;
  }
  const int64_t evaluations_after = db->run_totals(run_id).evaluations;
  EXPECT_EQ(evaluated_by_resume, evaluations_after - evaluations_at_kill) << "an evaluation on record was repeated";
  // No LLM call twice: no request identity recorded twice, and no request recorded before the kill was
  // sent to the server again (only those in flight at the kill may be).
  std::set<std::string> identities;
  for (const auto& c : db->llm_calls(run_id)) EXPECT_TRUE(identities.insert(c.request_hash).second);
  std::set<std::string> recorded_at_kill;
  for (const auto& c : calls_at_kill) recorded_at_kill.insert(c.request_hash);
  const auto all = server_.chat_requests();
  for (size_t i = requests_at_kill; i < all.size(); ++i) {
    const auto body = all[i].json();
    llm::ChatRequest req;
    for (const auto& m : body["messages"]) req.messages.push_back({m["role"], m["content"]});
    req.temperature = body["temperature"].get<double>();
    req.max_tokens = body["max_tokens"].get<int>();
    req.seed = body["seed"].get<uint64_t>();
    EXPECT_FALSE(recorded_at_kill.count(search::request_identity(req))) << "a recorded LLM call was sent again";
  }
  EXPECT_GT(kernels, 0);

  // The interrupted and resumed run is the run an uninterrupted one makes: the same kernels.
  TempDir other(fs::temp_directory_path(), "eok-llm-search-straight-");
  ProcessSpec straight = again;
  straight.argv = {eok, "--log-level", "warn", "search", "--task", "relu_f32", "--json"};
  for (auto& e : straight.env.value()) {
    if (e.rfind("EOK_HOME=", 0) == 0) e = "EOK_HOME=" + other.path().string();
  }
  ProcessResult s = run_process(straight);
  ASSERT_EQ(s.exit_code, 0) << s.err;
  const std::string straight_run = nlohmann::json::parse(s.out)["run"];
  std::set<std::string> straight_hashes;
  for (const auto& row :
       db::KernelDb::open(Workspace::open(other.path()).database_path())->kernels("relu_f32", straight_run)) {
    straight_hashes.insert(row.kernel.hash);
  }
  EXPECT_EQ(hashes, straight_hashes);
}

// Starts `eok search --task relu_f32` against the fake server as a user would, stdout and stderr to files
// in the workspace; returns its pid.
pid_t start_search_process(const fs::path& home, const std::string& base_url, const std::string& iterations) {
  std::vector<std::string> env = {"EOK_HOME=" + home.string(), "EOK_LLM_BASE_URL=" + base_url,
                                  "EOK_LLM_MODEL=fake-coder", "EOK_SEARCH_SEED=31",
                                  "EOK_SEARCH_ITERATIONS=" + iterations};
  if (const char* path = std::getenv("PATH")) env.push_back(std::string("PATH=") + path);
  const fs::path out = home / "stdout.txt", err = home / "stderr.txt";
  const std::string eok = (fs::path(EOK_BINARY_DIR) / "eok").string();
  pid_t pid = fork();
  if (pid == 0) {
    std::vector<std::string> args = {eok, "--log-level", "warn", "search", "--task", "relu_f32"};
    std::vector<char*> argv, envp;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    freopen(out.c_str(), "w", stdout);
    freopen(err.c_str(), "w", stderr);
    chdir(source_root().c_str());
    execve(eok.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  return pid;
}

// Waits up to `seconds` for `pid`; its wait status, or nullopt (then it is killed) when it did not end.
std::optional<int> wait_at_most(pid_t pid, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (std::chrono::steady_clock::now() < end) {
    if (waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return std::nullopt;
}

// A server that makes eok wait (429 with a two-minute Retry-After, or a reply that never comes): Ctrl-C is
// answered at once, the process ends within seconds, and the run is left stopped and resumable; a second
// Ctrl-C right after the first never leaves it "running".
TEST_F(SearchWithLlm, CtrlCIsAnsweredAtOnceWhileTheServerMakesEokWait) {
  for (int scenario = 0; scenario < 3; ++scenario) {
    SCOPED_TRACE(scenario == 0   ? "429 with Retry-After: 120"
                 : scenario == 1 ? "a reply that never comes"
                                 : "Ctrl-C twice");
    TempDir home(fs::temp_directory_path(), "eok-ctrl-c-");
    const size_t before = server_.chat_requests().size();
    server_.set_responder([scenario](const RecordedRequest&) {
      if (scenario == 0) return FakeReply::http_status(429, "{\"error\": \"slow down\"}", {{"Retry-After", "120"}});
      return FakeReply::stall(120);
    });
    const pid_t pid = start_search_process(home.path(), server_.base_url(), "1");
    ASSERT_GT(pid, 0);
    for (int i = 0; i < 1200 && server_.chat_requests().size() == before; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_GT(server_.chat_requests().size(), before) << "eok never asked the server";
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // in the wait or the transfer by now
    const auto t0 = std::chrono::steady_clock::now();
    kill(pid, SIGINT);
    if (scenario == 2) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));  // a person's second press
      kill(pid, SIGINT);
    }
    const std::optional<int> status = wait_at_most(pid, 20);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(status.has_value()) << "eok was still running 20 s after Ctrl-C";
    EXPECT_LT(took, 10.0) << "Ctrl-C took " << took << " s to be honoured";
    ASSERT_TRUE(WIFEXITED(*status));
    if (scenario < 2)
      EXPECT_EQ(WEXITSTATUS(*status), 7);
    else
      EXPECT_TRUE(WEXITSTATUS(*status) == 7 || WEXITSTATUS(*status) == 130) << WEXITSTATUS(*status);
    const std::string err = read_file(home.path() / "stderr.txt");
    EXPECT_NE(err.find("Ctrl-C: finishing"), std::string::npos) << err.substr(0, 2000);
    auto db = db::KernelDb::open(Workspace::open(home.path()).database_path());
    const auto runs = db->list_runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs.front().state, db::RunState::stopped) << "the run must stay resumable";
    // No request was ever answered: none is on record, so a resumed run asks them all again.
    for (const auto& c : db->llm_calls(runs.front().id)) ADD_FAILURE() << "call #" << c.id << " on record: " << c.error;
  }
}

TEST_F(SearchWithLlm, CtrlCStopsCleanlyAndTheRunCanContinue) {
  server_.set_responder([](const RecordedRequest& r) {
    FakeReply reply = scripted_reply(r, false);
    return reply.kind == FakeReply::Kind::completion ? std::move(reply).after(0.3) : reply;
  });
  const fs::path out = home_->path() / "stdout.txt";
  const pid_t pid = start_search_process(home_->path(), server_.base_url(), "3");
  ASSERT_GE(pid, 0);
  // Interrupt once the first proposals are on record.
  const fs::path dbfile = Workspace::open(home_->path()).database_path();
  for (int i = 0; i < 600; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!fs::exists(dbfile)) continue;
    auto runs = db::KernelDb::open(dbfile)->list_runs();
    if (!runs.empty() && db::KernelDb::open(dbfile)->run_totals(runs.front().id).llm_calls >= 2) break;
  }
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "eok did not exit by itself after Ctrl-C";
  EXPECT_EQ(WEXITSTATUS(status), 7);  // stopped early
  const std::string printed = read_file(out);
  EXPECT_NE(printed.find("stopped"), std::string::npos) << printed;
  EXPECT_NE(printed.find("eok search --resume"), std::string::npos) << printed;
  auto db = db::KernelDb::open(dbfile);
  const auto run = db->list_runs().front();
  EXPECT_EQ(run.state, db::RunState::stopped);
  for (const auto& row : db->kernels("relu_f32", run.id))
    EXPECT_TRUE(row.evaluation.has_value()) << "in-flight work was abandoned";
}

}  // namespace
}  // namespace eok::testing
