#include "rag/document.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <set>
#include <string_view>
#include <system_error>

#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::rag {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxIncludeDepth = 8;
constexpr size_t kSniffBytes = 8192;

// The length of the valid UTF-8 sequence at s[i], or 0 when the byte there starts none (overlong forms and
// surrogates are invalid too).
size_t utf8_length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t len = 0;
  uint32_t cp = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2, cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3, cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4, cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
  if (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
  return len;
}

// Text files have no NUL and hardly any control character or broken UTF-8 (a Latin-1 file has a few
// percent); compressed data, images and objects have them everywhere.
bool looks_binary(std::string_view bytes) {
  const std::string_view head = bytes.substr(0, kSniffBytes);
  if (head.find('\0') != std::string_view::npos) return true;
  size_t bad = 0;
  for (size_t i = 0; i < head.size();) {
    const auto c = static_cast<unsigned char>(head[i]);
    const size_t len = utf8_length(bytes, i);
    if (len == 0) {
      ++bad, ++i;
      continue;
    }
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1B) || c == 0x7F) ++bad;
    i += len;
  }
  return bad * 10 > head.size() * 3;
}

// `bytes` as UTF-8 with '\n' line ends: a byte-order mark dropped, CRLF made LF, a byte that is not UTF-8
// taken as the Latin-1 character of that value (so a Latin-1 file reads right and nothing is lost).
std::string to_utf8(std::string_view bytes) {
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);
  bool clean = bytes.find('\r') == std::string_view::npos;
  for (size_t i = 0, len = 0; clean && i < bytes.size(); i += len) clean = (len = utf8_length(bytes, i)) != 0;
  if (clean) return std::string(bytes);  // the usual case, without a copy byte by byte
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    const size_t len = utf8_length(bytes, i);
    if (len == 0) {
      const auto c = static_cast<unsigned char>(bytes[i++]);
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
      continue;
    }
    if (bytes[i] == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n') {
      ++i;
      continue;
    }
    out.append(bytes.substr(i, len));
    i += len;
  }
  return out;
}

bool blank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

// `file` relative to `root`, '/'-separated; both made absolute first so that "a/../b" and "./b" agree.
std::string relative_name(const fs::path& file, const fs::path& root) {
  const fs::path f = fs::weakly_canonical(fs::absolute(file));
  const fs::path r = fs::weakly_canonical(fs::absolute(root));
  const fs::path rel = f.lexically_relative(r);
  return rel.empty() ? f.filename().generic_string() : rel.generic_string();
}

// The target of an AsciiDoc include directive: the whole line is `include::TARGET[ATTRIBUTES]`.
std::optional<std::string> include_target(std::string_view line) {
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
  if (line.rfind("include::", 0) != 0 || line.empty() || line.back() != ']') return std::nullopt;
  const size_t open = line.find('[', 9);
  if (open == std::string_view::npos || open == 9) return std::nullopt;
  return std::string(line.substr(9, open - 9));
}

struct IncludeState {
  const fs::path& root;
  std::vector<fs::path> chain;  // the files being read, outermost first: a file on it may not be included again
  std::set<std::string> listed;
  std::vector<std::string> includes;
};

// `text` (of `file`) with its include directives replaced, appended to `out`.
void inline_includes(std::string_view text, const fs::path& file, IncludeState& state, std::string& out) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    const auto target = include_target(line);
    if (!target) {
      out.append(line);
      out += '\n';
      continue;
    }
    std::error_code ec;
    const fs::path included = fs::weakly_canonical(file.parent_path() / *target, ec);
    if (ec || !fs::is_regular_file(included, ec)) {
      out += "(include " + *target + " not found)\n";
    } else if (std::find(state.chain.begin(), state.chain.end(), included) != state.chain.end()) {
      out += "(include " + *target + " not inlined: it would include itself)\n";
    } else if (state.chain.size() > kMaxIncludeDepth) {
      out += "(include " + *target + " not inlined: includes nested more than 8 deep)\n";
    } else {
      std::string bytes;
      try {
        bytes = read_regular_file(included, kDocumentMaxBytes, "included document");
      } catch (const Error&) {
        out += "(include " + *target + " not inlined: not a regular file of at most " +
               byte_size_text(kDocumentMaxBytes) + ")\n";
        continue;
      }
      if (looks_binary(bytes)) {
        out += "(include " + *target + " not inlined: not a text file)\n";
        continue;
      }
      const std::string name = relative_name(included, state.root);
      if (state.listed.insert(name).second) state.includes.push_back(name);
      const std::string sub = to_utf8(bytes);
      if (document_kind(included) == DocumentKind::asciidoc) {
        state.chain.push_back(included);
        inline_includes(sub, included, state, out);
        state.chain.pop_back();
      } else {
        out += sub;
      }
      if (!out.empty() && out.back() != '\n') out += '\n';
    }
  }
}

}  // namespace

std::optional<DocumentKind> document_kind(const fs::path& file) {
  const std::string ext = file.extension().string();
  // Sources by their exact (lower-case) extension: "COPYING.CC" is a Creative Commons licence, not C++.
  if (ext == ".c" || ext == ".h" || ext == ".cc" || ext == ".cpp" || ext == ".hpp") return DocumentKind::code;
  std::string lower = ext;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == ".adoc" || lower == ".asciidoc") return DocumentKind::asciidoc;
  if (lower == ".md" || lower == ".markdown") return DocumentKind::markdown;
  if (lower == ".txt" || lower == ".rst") return DocumentKind::text;
  return std::nullopt;
}

std::vector<fs::path> list_documents(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    throw NotFoundError("no document folder or file at " + dir.string() +
                        ": check the path (a folder of .adoc, .md, "
                        ".txt, .rst or C/C++ files, or one such file)");
  }
  if (!fs::is_directory(dir, ec)) return {dir};
  std::vector<std::pair<std::string, fs::path>> found;  // relative name, path
  const auto options = fs::directory_options::skip_permission_denied;
  for (auto it = fs::recursive_directory_iterator(dir, options, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && document_kind(it->path())) {
      found.emplace_back(it->path().lexically_relative(dir).generic_string(), it->path());
    }
  }
  if (ec) throw Error("cannot list the documents under " + dir.string() + ": " + ec.message());
  std::sort(found.begin(), found.end());
  std::vector<fs::path> out;
  out.reserve(found.size());
  for (auto& [name, path] : found) out.push_back(std::move(path));
  return out;
}

std::optional<Document> load_document(const fs::path& file, const fs::path& root) {
  std::error_code ec;
  if (!fs::exists(file, ec)) throw NotFoundError("no document at " + file.string() + ": check the path");
  if (fs::is_directory(file, ec)) {
    throw NotFoundError(file.string() + " is a folder, not a document: list its files with list_documents");
  }
  const std::string bytes = read_regular_file(file, kDocumentMaxBytes, "document");
  if (blank(bytes) || looks_binary(bytes)) return std::nullopt;
  Document doc;
  doc.kind = document_kind(file).value_or(DocumentKind::text);
  doc.source = relative_name(file, root);
  std::string text = to_utf8(bytes);
  if (doc.kind == DocumentKind::asciidoc) {
    const fs::path self = fs::weakly_canonical(fs::absolute(file));
    IncludeState state{root, {self}, {}, {}};
    std::string out;
    out.reserve(text.size());
    inline_includes(text, self, state, out);
    if (!text.empty() && text.back() != '\n' && !out.empty() && out.back() == '\n') out.pop_back();
    text = std::move(out);
    doc.includes = std::move(state.includes);
  }
  doc.text = std::move(text);
  return doc;
}

}  // namespace eok::rag
