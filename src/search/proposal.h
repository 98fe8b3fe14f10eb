// Reading a kernel proposal out of an LLM reply, defensively. (A kernel's identity is the evaluator's:
// KernelJudge::identity.)
#pragma once

#include <string>

namespace eok::search {

struct Proposal {
  bool ok = false;
  std::string reason;  // why the reply is not a candidate (ok == false)
  std::string code;    // the C source of the kernel
  std::string idea;    // the one-sentence idea ("" when the reply states none)
};

// A reply is a candidate when a complete fenced code block defines `entry`; when several do, the last one
// is the kernel (a reply that revises its draft ends with the revision). A reasoning model's
// <think>...</think> is skipped: only the answer after it counts. The idea is the text of an "Idea:" line
// before the block, else the first sentence before it. Replies that are too large, not UTF-8, without such
// a block, with only an unclosed one (a truncated reply) or that end inside <think> are not candidates,
// and `reason` says which.
Proposal parse_proposal(const std::string& reply, const std::string& entry);

}  // namespace eok::search
