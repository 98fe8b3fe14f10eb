// Documents for retrieval: which files of a folder are text worth indexing, and their text, with AsciiDoc
// includes resolved.
//
// Contract: list_documents and load_document only read; both are deterministic (sorted paths). A file
// that is empty or binary is not a document (nullopt), so a caller can count it and go on.
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
  std::string text;    // UTF-8; AsciiDoc include:: directives replaced by the included text
};

// Supported files under `dir` (or `dir` itself when it is a file), recursively, sorted: AsciiDoc (.adoc
// .asciidoc), Markdown (.md .markdown), text (.txt .rst) and C/C++ (.c .h .cc .cpp .hpp). Hidden files
// and folders are skipped. Throws NotFoundError when `dir` does not exist.
std::vector<std::filesystem::path> list_documents(const std::filesystem::path& dir);

// The kind of `file` by its extension; nullopt when it is not a supported document.
std::optional<DocumentKind> document_kind(const std::filesystem::path& file);

// Reads `file`, its source named relative to `root`. nullopt for an empty file (only white space) or a
// binary one (a NUL byte, or mostly invalid UTF-8, in its first 8 KiB). AsciiDoc `include::F[]` lines are
// replaced by F's text (relative to the including file; nested up to 8 deep, a cycle cut), or by a line
// saying it was not found. Throws NotFoundError when `file` does not exist.
std::optional<Document> load_document(const std::filesystem::path& file, const std::filesystem::path& root);

}  // namespace eok::rag
