// Documents for retrieval: which files of a folder are text worth indexing, and their text as UTF-8 with
// AsciiDoc includes inlined.
//
// Contract: list_documents and load_document only read, and are deterministic (paths sorted by their
// relative name). A file that is empty or binary is not a document: load_document returns nullopt, so that
// a caller can count it and go on. Document::text is always valid UTF-8 with '\n' line ends: a byte that is
// not UTF-8 in a text file is read as Latin-1, a byte-order mark is dropped, CRLF becomes LF.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace eok::rag {

enum class DocumentKind { asciidoc, markdown, text, code };

struct Document {
  std::string source;  // path relative to the corpus root, '/'-separated ("riscv-v-spec/v-spec.adoc")
  DocumentKind kind = DocumentKind::text;
  std::string text;  // UTF-8; AsciiDoc include:: directives replaced by the included text
  // The files inlined into `text` by include::, relative to the root like `source`, in order, each once. A
  // caller indexing a whole folder can skip them there to avoid indexing the same text twice.
  std::vector<std::string> includes;
};

// The kind of `file` by its extension: .adoc .asciidoc; .md .markdown; .txt .rst (any case); .c .h .cc .cpp
// .hpp (lower case only). nullopt for any other file.
std::optional<DocumentKind> document_kind(const std::filesystem::path& file);

// The supported files under `dir`, recursively, sorted by their path relative to `dir`; hidden files and
// folders (a name starting with '.') are skipped, symbolic links to folders are not followed. When `dir` is
// a file it is the one result, whatever its extension (whoever names a file wants it read; it is read as
// text). Throws NotFoundError when `dir` does not exist.
std::vector<std::filesystem::path> list_documents(const std::filesystem::path& dir);

// Reads `file`, its source named relative to `root` (a file outside `root` keeps a "../" path). Returns
// nullopt for an empty file (nothing but white space) or a binary one: a NUL byte in its first 8 KiB, or more
// than 30% of those bytes invalid UTF-8 or control characters. AsciiDoc: an `include::F[...]` line is
// replaced by the text of F, relative to the including file, with F's own includes resolved when F is
// AsciiDoc (8 levels deep at most; a file that would include itself is cut); a line "(include F not found)"
// stands for a missing F. The attributes in [...] (lines=, tag=, leveloffset=) are not applied. Throws
// NotFoundError when `file` does not exist or is a folder, Error when it cannot be read.
std::optional<Document> load_document(const std::filesystem::path& file, const std::filesystem::path& root);

}  // namespace eok::rag
