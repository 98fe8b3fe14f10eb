#include "rag/document.h"

#include <algorithm>
#include <set>

#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::rag {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxIncludeDepth = 8;

bool looks_binary(const std::string& bytes) {
  const size_t n = std::min<size_t>(bytes.size(), 8192);
  size_t invalid = 0;
  for (size_t i = 0; i < n;) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c == 0) return true;
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len > 0 && i + len <= bytes.size();
    for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(bytes[i + k]) & 0xC0) == 0x80;
    if (!ok) {
      ++invalid;
      len = 1;
    }
    i += len;
  }
  return n > 0 && invalid * 10 > n;  // more than a tenth invalid: not text in any encoding we index
}

bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

// AsciiDoc includes, inlined. `seen` holds the files on the current include chain (cycles are cut).
std::string resolve_includes(const std::string& text, const fs::path& file, int depth, std::set<fs::path>& seen) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = std::min(text.find('\n', pos), text.size());
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    const size_t open = line.find('[');
    if (line.rfind("include::", 0) != 0 || open == std::string::npos) {
      out += line + "\n";
      continue;
    }
    const std::string target = line.substr(9, open - 9);
    const fs::path included = fs::weakly_canonical(file.parent_path() / target);
    if (depth >= kMaxIncludeDepth || seen.count(included)) {
      out += "(include " + target + " skipped: nested too deep or circular)\n";
    } else if (!fs::is_regular_file(included)) {
      out += "(include " + target + " not found)\n";
    } else {
      seen.insert(included);
      out += resolve_includes(read_file(included), included, depth + 1, seen);
      seen.erase(included);
    }
  }
  return out;
}

}  // namespace

std::optional<DocumentKind> document_kind(const fs::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".adoc" || ext == ".asciidoc") return DocumentKind::asciidoc;
  if (ext == ".md" || ext == ".markdown") return DocumentKind::markdown;
  if (ext == ".txt" || ext == ".rst") return DocumentKind::text;
  if (ext == ".c" || ext == ".h" || ext == ".cc" || ext == ".cpp" || ext == ".hpp") return DocumentKind::code;
  return std::nullopt;
}

std::vector<fs::path> list_documents(const fs::path& dir) {
  if (!fs::exists(dir)) throw NotFoundError("no document folder or file at " + dir.string());
  std::vector<fs::path> out;
  if (fs::is_regular_file(dir)) {
    if (document_kind(dir)) out.push_back(dir);
    return out;
  }
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (!name.empty() && name[0] == '.') {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && document_kind(it->path())) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<Document> load_document(const fs::path& file, const fs::path& root) {
  if (!fs::exists(file)) throw NotFoundError("no document at " + file.string());
  const auto kind = document_kind(file);
  std::string text = read_file(file);
  if (blank(text) || looks_binary(text)) return std::nullopt;
  Document d;
  d.kind = kind.value_or(DocumentKind::text);
  d.source = fs::relative(file, root).generic_string();
  if (d.kind == DocumentKind::asciidoc) {
    std::set<fs::path> seen{fs::weakly_canonical(file)};
    text = resolve_includes(text, fs::weakly_canonical(file), 0, seen);
  }
  d.text = std::move(text);
  return d;
}

}  // namespace eok::rag
