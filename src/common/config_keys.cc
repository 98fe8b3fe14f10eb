// The declaration of every configuration key: the one place to add one. Defaults here are the built-in
// layer; configs/eok.toml may override them for the team.
#include "src/common/config.h"

namespace eok {

const std::vector<KeySpec>& config_keys() {
  static const std::vector<KeySpec> keys = {
      // LLM endpoint (any OpenAI-compatible server)
      {"llm.base_url", KeyType::string, "",
       "OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1 (empty: look for a local server)"},
      {"llm.model", KeyType::string, "", "model name (empty: the first model the server lists)"},
      {"llm.api_key", KeyType::string, "", "API key, sent as a bearer token; from EOK_LLM_API_KEY only", true},
      {"llm.discover", KeyType::boolean, "true",
       "when llm.base_url is empty, look for vLLM, Ollama or llama.cpp on their usual local ports"},
      {"llm.discover_ports", KeyType::string, "8000,11434,8080",
       "the 127.0.0.1 ports discovery probes, in order (vLLM, Ollama, llama.cpp)"},
      {"llm.preflight", KeyType::boolean, "true", "before a search, check that the endpoint answers GET /models"},
      {"llm.send_key_to_discovered", KeyType::boolean, "false",
       "send llm.api_key to a server found by discovery too (by default the key only goes to the llm.base_url you "
       "set)"},
      {"llm.timeout_seconds", KeyType::number, "180", "per-request timeout"},
      {"llm.max_retries", KeyType::integer, "5",
       "retries on 429, 5xx, resets and timeouts (exponential backoff with jitter)"},
      {"llm.backoff_initial_seconds", KeyType::number, "1", "first retry delay; doubles per retry, with jitter"},
      {"llm.backoff_max_seconds", KeyType::number, "60",
       "longest retry delay (a server's Retry-After is capped by it too)"},
      {"llm.max_concurrency", KeyType::integer, "4", "LLM requests in flight at once, over all parallel searches"},
      {"llm.temperature", KeyType::number, "0.8", "sampling temperature of kernel proposals"},
      {"llm.max_tokens", KeyType::integer, "16384",
       "completion token limit per request (a reasoning model spends most of it thinking)"},
      {"llm.price_input_per_mtok", KeyType::number, "0", "price per million prompt tokens, for cost accounting"},
      {"llm.price_output_per_mtok", KeyType::number, "0", "price per million completion tokens"},
      // Budget per run (0: unlimited)
      {"budget.max_llm_calls", KeyType::integer, "0", "stop sending LLM requests after this many (0: no limit)"},
      {"budget.max_tokens", KeyType::integer, "0", "stop after this many prompt + completion tokens (0: no limit)"},
      {"budget.max_cost", KeyType::number, "0", "stop after this cost, in the unit of the prices (0: no limit)"},
      // Search
      {"search.method", KeyType::string, "auto", "eok (ideas + EoH), eoh (plain EoH), tuner (no LLM), or auto"},
      {"search.iterations", KeyType::integer, "2", "EoK outer iterations"},
      {"search.parallel", KeyType::integer, "2", "idea-guided EoH searches per iteration, run in parallel"},
      {"search.population", KeyType::integer, "4", "EoH population size (and initial kernels per search)"},
      {"search.generations", KeyType::integer, "2", "EoH generations per search"},
      {"search.offspring", KeyType::integer, "1",
       "children each of the five EoH operators makes per generation; the population is trimmed after each operator "
       "(EoH's reference: the population size)"},
      {"search.top_k", KeyType::integer, "8", "kernels kept in the run's database for parent sampling"},
      {"search.seed", KeyType::integer, "0", "seed of every random choice (0: draw one and record it)"},
      {"search.eval_concurrency", KeyType::integer, "0",
       "evaluations at once on the board (0: one per two host cores, at least one)"},
      {"search.thought_sampling", KeyType::string, "softmax", "softmax (weighted by effectiveness) or uniform"},
      {"search.thought_temperature", KeyType::number, "0.05", "softmax temperature over thought effectiveness"},
      {"search.idea_sampling", KeyType::string, "effectiveness",
       "how each search's idea is drawn: effectiveness (softmax over what the run has learned) or uniform (the "
       "paper's); parallel searches never share one while others are left"},
      {"search.idea_temperature", KeyType::number, "0.1",
       "softmax temperature over idea effectiveness (idea_sampling = effectiveness)"},
      {"search.parent_selection", KeyType::string, "rank",
       "how parents are drawn: rank (as EoH: weight 1/(rank+1+n), whatever the speedups' scale) or softmax (over "
       "speedup)"},
      {"search.parent_temperature", KeyType::number, "0.1",
       "softmax temperature over parent speedup (parent_selection = softmax)"},
      {"search.effectiveness_rate", KeyType::number, "0.3",
       "weight of an iteration's observed improvement in an idea's effectiveness"},
      {"search.rag", KeyType::string, "both",
       "retrieval into prompts: none, docs (reference documents), code (the idea pool's example code), both"},
      {"search.rag_index", KeyType::string, "default",
       "the document index (eok rag build --name); built from rag/corpus/ when missing"},
      {"search.pool", KeyType::string, "", "idea pool JSON (empty: the workspace's latest mined pool, if any)"},
      // Offline mining (eok mine)
      {"mine.branch", KeyType::string, "",
       "branch to mine (empty: the library's branch in configs/repos.toml, else HEAD)"},
      {"mine.variant", KeyType::string, "two-level",
       "pool variant: raw (commits as thoughts), kmeans (one level), two-level (the paper's)"},
      {"mine.embedder", KeyType::string, "offline",
       "offline (TF-IDF + SVD, no model download) or http (llm.base_url /embeddings)"},
      {"mine.embedding_model", KeyType::string, "", "embedding model for mine.embedder = http"},
      {"mine.embedding_dim", KeyType::integer, "128", "dimension of the offline embedder"},
      {"mine.distiller", KeyType::string, "auto", "auto (the LLM when one is configured or found), llm, or extractive"},
      {"mine.delta", KeyType::number, "-1",
       "cosine distance under which a commit joins a thought (-1: the embedder's default)"},
      {"mine.rounds", KeyType::integer, "16", "re-association and re-distillation rounds of two-level at most"},
      {"mine.ideas", KeyType::integer, "0", "general ideas to form (0: about the square root of the thoughts)"},
      {"mine.max_diff_bytes", KeyType::integer, "16384", "kernel diff kept per commit"},
      {"mine.import_files", KeyType::integer, "200",
       "a commit adding more files than this is an import, not an optimisation"},
      {"mine.group_size", KeyType::integer, "6",
       "K-means of the commits no thought takes aims at groups of about this many"},
      {"mine.seed", KeyType::integer, "1", "seed of the K-means initialisations"},
      // Non-LLM tuner
      {"tuner.max_evaluations", KeyType::integer, "48", "variants the knob tuner evaluates at most"},
  };
  return keys;
}

}  // namespace eok
