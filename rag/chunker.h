// Retrieval chunks of a document: pieces that follow its section headings, each knowing its source and
// section path, small enough to embed and to show in a prompt, with code listings and tables kept whole
// where they fit.
//
// Contract: chunk_document is deterministic and never returns an empty chunk. Every chunk is at most
// max_chars bytes long, except one that holds a single listing or table of up to 2 * max_chars bytes kept
// whole (with at most a lead-in paragraph shorter than min_chars right above it, within the same 2 *
// max_chars). Chunks come in document order and each one's text is taken from Document::text, line for line,
// except that trailing white space is dropped, AsciiDoc comments and attribute entries are left out, and a
// split listing or table repeats its opening lines (delimiter, attributes, table header) and closing line in
// every part.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rag/document.h"

namespace eok::rag {

struct Chunk {
  std::string source;  // the document's source
  // The heading path, " > "-joined: "Vector Arithmetic Instructions > Vector Integer Add"; "" before any
  // heading. The document title (AsciiDoc `=`, Markdown `#`) is its first element. For C/C++, a top-level
  // block's declaration ("static void mish_block(float *y, const float *x, size_t n)"); "" for the
  // declarations between blocks and for the file comment.
  std::string section;
  std::string text;  // the chunk's text, without its heading line (a caller may prefix `section`)
  // 1-based line of the chunk's first line in Document::text (for a later part of a split listing or table,
  // of its first line that is not a repeated opening line).
  size_t line = 0;
};

struct ChunkOptions {
  size_t max_chars = 2400;  // in bytes; a chunk is at most this long (but see the contract above); at least 64
  size_t min_chars = 200;   // shorter neighbouring pieces of the same section are merged; plain text paragraphs
                            // are merged up to this size, never beyond
};

// Sections: AsciiDoc titles `=` to `======` (after a blank line, an attribute, anchor or block title line, or
// a block; never inside a delimited block: a `= x` line inside a paragraph or a listing is text), Markdown
// ATX `#` and setext headings (never inside a ``` or ~~~ fence). C/C++: one section per top-level braced
// block (function, struct, class, initialised table; a block comment or comments right above it belong to
// it; namespaces and extern "C" are looked through), the declarations between them, and the file comment at
// the top as a chunk of its own. Plain text: paragraphs.
//
// Inside a section, pieces are separated by blank lines and packed greedily into chunks of up to max_chars
// (plain text: closed once they reach min_chars). An AsciiDoc delimited block (`----` `....` `++++` `|===`
// `====` `****` `____` `--`, with nested blocks; `////` comment blocks are left out) or a Markdown fence or
// pipe table is one piece together with its attribute and title lines. A piece longer than max_chars (a
// listing or table: longer than 2 * max_chars) is split at line boundaries, preferably after a blank line, a
// line ending a statement or sentence, or before a table row or list item; a line longer than the room left
// is cut, at a space when there is one near the cut, never inside a UTF-8 character.
std::vector<Chunk> chunk_document(const Document& doc, const ChunkOptions& options = {});

}  // namespace eok::rag
