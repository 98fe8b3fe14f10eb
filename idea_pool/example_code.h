// What of a thought's example change is worth a prompt's space: the changed hunks with a little context,
// without licence headers and comment-only edits, and how relevant the example is to an RVV C kernel.
#pragma once

#include <string>
#include <vector>

#include "idea_pool/pool.h"

namespace eok::idea_pool {

// The example's diff cut to its changed hunks, each with at most `context` unchanged lines around its
// changes; licence and copyright comment blocks and hunks that only touch comments are dropped; whole
// hunks up to `max_chars` (the first one cut at a line when it alone is longer). "" when nothing is left.
std::string clean_example_code(const std::string& code, size_t max_chars, size_t context = 3);

// Higher is more useful to a model writing RVV C: RVV intrinsics or vector types in the change, a C
// source, over scalar C, over assembly (.S/.s files or assembler mnemonics).
int example_relevance(const CodeExample& e);

// The examples of `t` ordered by relevance (stable: equal ones keep the pool's order).
std::vector<const CodeExample*> examples_by_relevance(const Thought& t);

// True when the pool's thoughts were distilled without an LLM (commit titles, not written steps).
bool pool_is_extractive(const IdeaPool& pool);

}  // namespace eok::idea_pool
