// A heuristic effect for the commits no performance evaluation measured (most of them): what the message
// claims or suggests, lowered when the history shows the change was reverted or needed fixing soon after.
//
// Contract: estimate_effect is deterministic (same commit and context, same Effect), never throws for any
// message, and always returns measured = false with evidence starting "estimate: ". An improvement is
// old_time / new_time - 1 as in Effect; confidence in [0, 1] says how much to trust it (at most 0.6, below
// any well-measured effect).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "idea_pool/mined_commit.h"

namespace eok::idea_pool {

// What a commit message says about speed.
struct MessageSignals {
  std::vector<double> claims;                   // improvements it states ("20% faster" -> 0.2, "2x speedup" -> 1.0)
  std::vector<std::string> claim_texts;         // the phrases they came from
  bool peak_claim = false;                      // "up to ...": a best case
  std::vector<std::string> perf_words;          // intent: optimize, speed up, faster, performance ...
  std::vector<std::string> technique_words;     // how: vectorize, unroll, prefetch, RVV, SIMD ...
  std::vector<std::string> fix_words;           // repairs: fix, bug, typo, workaround, compile, NaN handling ...
  std::vector<std::string> housekeeping_words;  // build, test, CI, cleanup, docs, rename ...
  bool is_revert = false;                       // the commit itself reverts another

  bool fix_only() const { return !fix_words.empty() && perf_words.empty(); }
};

// Reads the signals of a message (and pull request title). Case-insensitive; looks at the first 8 KiB.
MessageSignals read_message_signals(const std::string& text);

struct EstimateOptions {
  int64_t follow_up_window_s = 30 * 86400;  // a fix of the same files this soon after counts against a commit
  double claim_discount = 0.5;              // messages state best cases on the author's machine
  double peak_claim_discount = 0.3;         // "up to 3x": the best case of the best cases
};

// The rest of the history an estimate can look at: which commits were reverted later, and which files
// were fixed soon after. Feed it every walked commit, also the ones the miner drops (reverts, fixes).
class EstimateContext {
 public:
  EstimateContext() = default;  // no history: message signals only
  explicit EstimateContext(EstimateOptions options) : options_(options) {}
  EstimateContext(const std::vector<MinedCommit>& commits, EstimateOptions options = {});

  // Adds one commit of the history with the paths it changes.
  void add(const CommitInfo& commit, const std::vector<std::string>& paths);

  const EstimateOptions& options() const { return options_; }
  // The sha of a later commit that reverts `c` (by "This reverts commit <sha>" or 'Revert "<title>"').
  std::optional<std::string> reverted_by(const CommitInfo& c) const;
  // Later fix-like commits (within the window, strictly after `c`) that change one of `paths`; oldest first.
  std::vector<std::string> follow_up_fixes(const CommitInfo& c, const std::vector<std::string>& paths) const;

 private:
  struct Later {
    int64_t time;
    std::string sha;
  };
  EstimateOptions options_;
  std::map<std::string, std::string> reverted_sha_;    // sha (maybe abbreviated) a revert names -> the revert
  std::map<std::string, std::string> reverted_title_;  // title a revert names -> the revert
  std::map<std::string, std::vector<Later>> fixes_by_path_;
};

// The heuristic estimate for `c`: stated figures (discounted) first, else keywords of intent and technique,
// else fix-like words (about 0), else a small prior for a kernel change; then reverts and follow-up fixes
// from `ctx` lower it. See effect_estimate.cc for the numbers.
Effect estimate_effect(const MinedCommit& c, const EstimateContext& ctx);

}  // namespace eok::idea_pool
