// Retrieval chunks of a document: pieces that follow its section headings, each knowing its source and
// section path, small enough to embed and to show in a prompt, with code listings and tables kept whole
// where they fit.
//
// Contract: chunk_document is deterministic, never returns an empty chunk, and every chunk is at most
// max_chars long except a single listing or table of up to 2 * max_chars, which is worth keeping whole.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rag/document.h"

namespace eok::rag {

struct Chunk {
  std::string source;   // the document's source
  std::string section;  // heading path, " > "-joined: "Vector Reduction Operations > Vector Ordered ..."; "" before any heading
  std::string text;     // the chunk's text, without its heading line
  size_t line = 0;      // 1-based line of its first line in Document::text
};

struct ChunkOptions {
  size_t max_chars = 2400;
  size_t min_chars = 200;  // a shorter piece is merged with the next piece of its section when they fit together
};

// Sections: AsciiDoc titles (`=` to `======`, after a blank line or an attribute/anchor line, never inside
// a delimited block), Markdown `#` headings (never inside a fence); C/C++ sources split at blank lines
// between top-level blocks, each named by its first line; plain text split into paragraphs. Inside a
// section, pieces are separated by blank lines; a delimited block (AsciiDoc `----`, `....`, `|===`,
// `====`, `****`, `++++`; Markdown fences) is one piece with the title or attribute lines right above it.
std::vector<Chunk> chunk_document(const Document& doc, const ChunkOptions& options = {});

}  // namespace eok::rag
