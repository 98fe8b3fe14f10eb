#include "rag/offline_embedder.h"

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <numbers>
#include <random>
#include <unordered_set>

#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/hash.h"

namespace eok::rag {

static_assert(std::endian::native == std::endian::little, "the model file stores float32 little-endian");

namespace {

// ---- tokenizer --------------------------------------------------------------------------------------

const std::unordered_set<std::string_view>& stop_words() {
  static const std::unordered_set<std::string_view> words = {
      // English function words.
      "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as", "at",
      "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do",
      "does", "doing", "done", "down", "during", "each", "either", "else", "etc", "even", "ever", "every", "few", "for",
      "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "however",
      "if", "in", "into", "is", "it", "its", "itself", "just", "may", "me", "might", "more", "most", "much", "must",
      "my", "no", "nor", "not", "now", "of", "off", "on", "once", "one", "only", "or", "other", "our", "out", "over",
      "own", "per", "same", "should", "since", "so", "some", "such", "than", "that", "the", "their", "them", "then",
      "there", "these", "they", "this", "those", "through", "thus", "to", "too", "under", "until", "up", "upon", "us",
      "very", "via", "was", "we", "were", "what", "when", "where", "whether", "which", "while", "who", "whom", "why",
      "will", "with", "within", "without", "would", "yet", "you", "your", "eg", "ie", "vs",
      // Commit boilerplate that says nothing about the change.
      "signed", "authored", "cherry", "picked", "pr", "prs", "issue", "issues", "ref", "refs", "fixes", "closes", "see",
      "please", "thanks", "thank", "http", "https", "www", "com", "org", "github",
      // Verbs of every commit title ("Add support for ...", "Use X instead of Y"): they would make unrelated
      // titles look alike.
      "add", "adds", "added", "adding", "use", "uses", "used", "using", "instead", "new", "make", "makes", "made",
      "update", "updates", "updated", "change", "changes", "changed", "support", "supports", "supported", "like",
      "need", "needs", "needed", "let", "way", "still", "already", "well"};
  return words;
}

std::string stem(std::string w);

// A word is a stop word when it or its stem is one ("adding" -> "add").
bool is_stop_word(const std::string& w) {
  static const std::unordered_set<std::string> stems = [] {
    std::unordered_set<std::string> s;
    for (auto word : stop_words()) s.insert(stem(std::string(word)));
    return s;
  }();
  return stop_words().count(w) || stems.count(stem(w));
}

// Base mnemonics of RVV 1.0 instructions and the stems of their intrinsics and types. A word whose leading
// letters are one of these is vector code, whatever follows (element width, .vv/.vf, _f32m8 ...).
const std::unordered_set<std::string_view>& rvv_stems() {
  static const std::unordered_set<std::string_view> stems = {
      // configuration
      "vsetvli", "vsetivli", "vsetvl", "vsetvlmax",
      // loads and stores
      "vle", "vse", "vlse", "vsse", "vluxei", "vloxei", "vsuxei", "vsoxei", "vlseg", "vsseg", "vlsseg", "vssseg",
      "vluxseg", "vloxseg", "vsuxseg", "vsoxseg", "vlm", "vsm", "vlre", "vsr",
      // integer arithmetic
      "vadd", "vsub", "vrsub", "vwaddu", "vwadd", "vwsubu", "vwsub", "vzext", "vsext", "vadc", "vmadc", "vsbc", "vmsbc",
      "vand", "vor", "vxor", "vnot", "vneg", "vsll", "vsrl", "vsra", "vnsrl", "vnsra", "vmseq", "vmsne", "vmsltu",
      "vmslt", "vmsleu", "vmsle", "vmsgtu", "vmsgt", "vmsgeu", "vmsge", "vminu", "vmin", "vmaxu", "vmax", "vmul",
      "vmulh", "vmulhu", "vmulhsu", "vdivu", "vdiv", "vremu", "vrem", "vwmul", "vwmulu", "vwmulsu", "vmacc", "vnmsac",
      "vmadd", "vnmsub", "vwmaccu", "vwmacc", "vwmaccsu", "vwmaccus", "vmerge", "vmv", "vsaddu", "vsadd", "vssubu",
      "vssub", "vaaddu", "vaadd", "vasubu", "vasub", "vsmul", "vssrl", "vssra", "vnclipu", "vnclip",
      // floating point
      "vfadd", "vfsub", "vfrsub", "vfwadd", "vfwsub", "vfmul", "vfdiv", "vfrdiv", "vfwmul", "vfmacc", "vfnmacc",
      "vfmsac", "vfnmsac", "vfmadd", "vfnmadd", "vfmsub", "vfnmsub", "vfwmacc", "vfwnmacc", "vfwmsac", "vfwnmsac",
      "vfsqrt", "vfrsqrt", "vfrec", "vfmin", "vfmax", "vfsgnj", "vfsgnjn", "vfsgnjx", "vfabs", "vfneg", "vmfeq",
      "vmfne", "vmflt", "vmfle", "vmfgt", "vmfge", "vfclass", "vfmerge", "vfmv", "vfcvt", "vfwcvt", "vfncvt",
      // reductions
      "vredsum", "vredmaxu", "vredmax", "vredminu", "vredmin", "vredand", "vredor", "vredxor", "vwredsumu", "vwredsum",
      "vfredosum", "vfredusum", "vfredsum", "vfredmax", "vfredmin", "vfwredosum", "vfwredusum", "vfwredsum",
      // masks
      "vmand", "vmnand", "vmandn", "vmandnot", "vmxor", "vmor", "vmnor", "vmorn", "vmornot", "vmxnor", "vcpop", "vpopc",
      "vfirst", "vmsbf", "vmsif", "vmsof", "viota", "vid", "vmmv", "vmclr", "vmset", "vmnot",
      // permutations
      "vslideup", "vslidedown", "vslide", "vfslide", "vrgather", "vrgatherei", "vcompress",
      // intrinsic helpers and types
      "vreinterpret", "vundefined", "vlmul", "vget", "vset", "vcreate", "vfloat", "vint", "vuint", "vbool"};
  return stems;
}

size_t lower_find(std::string_view s, std::string_view needle) {
  for (size_t i = 0; i + needle.size() <= s.size(); ++i) {
    size_t k = 0;
    while (k < needle.size() && std::tolower(static_cast<unsigned char>(s[i + k])) == needle[k]) ++k;
    if (k == needle.size()) return i;
  }
  return std::string_view::npos;
}

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

// "Signed-off-by: ...", "Co-authored-by: ...", "Change-Id: ...": names and ids, not content.
bool is_trailer_line(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  const size_t start = i;
  while (i < line.size() && (std::isalpha(static_cast<unsigned char>(line[i])) || line[i] == '-')) ++i;
  if (i >= line.size() || line[i] != ':' || i == start) return false;
  std::string key(line.substr(start, i - start));
  for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key.ends_with("-by") || key == "change-id" || key == "cc";
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.ends_with(suffix);
}

bool is_vowel(char c) {
  return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
}

// A light suffix stripper for lower-case alphabetic words, so that inflections of one word meet:
// optimise/optimize/optimized/optimization -> "optimiz", loads -> "load", unrolling -> "unroll".
std::string stem(std::string w) {
  if (w.size() <= 3) return w;
  if (ends_with(w, "sses")) {
    w.resize(w.size() - 2);
  } else if (ends_with(w, "ies") && w.size() > 4) {
    w.resize(w.size() - 3);
    w += 'y';
  } else if (w.back() == 's' && !ends_with(w, "ss") && !ends_with(w, "us") && !ends_with(w, "is")) {
    w.pop_back();
  }
  // British spelling: optimis(e|ed|ing|ation) -> optimiz...
  for (std::string_view s : {"isation", "ise", "ised", "ising"}) {
    if (ends_with(w, s) && w.size() > s.size() + 2) {
      w[w.size() - s.size() + 1] = 'z';
      break;
    }
  }
  auto strip = [&](std::string_view suffix, size_t keep) {
    if (ends_with(w, suffix) && w.size() - suffix.size() >= keep) {
      w.resize(w.size() - suffix.size());
      return true;
    }
    return false;
  };
  if (strip("ization", 4)) {
    w += "iz";
  } else if (strip("ation", 4)) {
  } else if (strip("ing", 4) || strip("ed", 4)) {
    // stripped -> stripp -> strip; but unroll, pass and fuzz keep their pair.
    const size_t n = w.size();
    if (n >= 2 && w[n - 1] == w[n - 2] && !is_vowel(w[n - 1]) && w[n - 1] != 'l' && w[n - 1] != 's' &&
        w[n - 1] != 'z') {
      w.pop_back();
    }
  }
  if (w.size() > 4 && w.back() == 'e') w.pop_back();
  return w;
}

bool all_hex(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

// Splits "dgemvKernelT" into dgemv, Kernel, T and "HTTPServer" into HTTP, Server.
void camel_split(std::string_view part, std::vector<std::string_view>& out) {
  size_t start = 0;
  auto upper = [&](size_t i) { return std::isupper(static_cast<unsigned char>(part[i])) != 0; };
  auto lower = [&](size_t i) { return std::islower(static_cast<unsigned char>(part[i])) != 0; };
  for (size_t i = 1; i < part.size(); ++i) {
    // "NaN" and "isNaN" stay whole: a lower-upper boundary needs three letters before it.
    const bool boundary = (upper(i) && lower(i - 1) && i - start >= 3) ||
                          (upper(i) && upper(i - 1) && i + 1 < part.size() && lower(i + 1));
    if (boundary) {
      out.push_back(part.substr(start, i - start));
      start = i;
    }
  }
  out.push_back(part.substr(start));
}

class TokenSink {
 public:
  TokenSink(std::vector<std::string>* tokens, std::vector<Word>* words, bool bigrams)
      : tokens_(tokens), words_(words), bigrams_(bigrams) {}

  // A word-level term: it joins its neighbours in bigrams.
  void main(const std::string& term, std::string_view surface) {
    if (tokens_) {
      tokens_->push_back(term);
      if (bigrams_ && !prev_.empty()) tokens_->push_back(prev_ + ' ' + term);
    }
    if (words_) words_->push_back({term, std::string(surface)});
    prev_ = term;
  }
  // An extra term (a whole intrinsic name): no bigrams.
  void extra(const std::string& term) {
    if (tokens_) tokens_->push_back(term);
  }
  void clause_break() { prev_.clear(); }

 private:
  std::vector<std::string>* tokens_;
  std::vector<Word>* words_;
  bool bigrams_;
  std::string prev_;
};

// An RVV instruction or intrinsic: emits its stem (a main term) and its whole forms; false when `lower`
// is ordinary text.
bool emit_rvv(std::string lower, TokenSink& sink) {
  bool intrinsic = false;
  if (lower.starts_with("__riscv_")) {
    lower.erase(0, 8);
    intrinsic = true;
  }
  if (lower.size() < 3 || lower[0] != 'v') return false;
  size_t n = 0;
  while (n < lower.size() && std::islower(static_cast<unsigned char>(lower[n]))) ++n;
  const std::string stem_part = lower.substr(0, n);
  if (!rvv_stems().count(stem_part)) return false;
  // Short stems are English-like ("vid", "vor", "vset") when they stand alone outside an intrinsic.
  if (!intrinsic && n == lower.size() && n < 4) return false;
  for (auto& c : lower) {
    if (c == '.') c = '_';
  }
  sink.main(stem_part, stem_part);
  const std::string mnemonic = lower.substr(0, lower.find('_'));
  if (mnemonic != stem_part) sink.extra(mnemonic);
  if (lower != mnemonic) sink.extra(lower);
  return true;
}

void emit_part(std::string_view piece, TokenSink& sink) {
  if (piece.size() < 2 || piece.size() > 40) return;
  if (std::isdigit(static_cast<unsigned char>(piece[0]))) return;  // numbers, 8x4, 3m
  std::string w(piece);
  bool has_digit = false;
  for (auto& c : w) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    has_digit |= std::isdigit(static_cast<unsigned char>(c)) != 0;
  }
  if (has_digit && w.size() >= 7 && all_hex(w)) return;  // an abbreviated commit hash
  if (is_stop_word(w)) return;
  sink.main(has_digit ? w : stem(w), w);
}

void emit_chunk(std::string_view chunk, TokenSink& sink) {
  while (!chunk.empty() && chunk.front() == '.') chunk.remove_prefix(1);
  while (!chunk.empty() && chunk.back() == '.') chunk.remove_suffix(1);
  if (chunk.empty()) return;
  std::string lower(chunk);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (emit_rvv(lower, sink)) return;
  std::vector<std::string_view> pieces;
  size_t start = 0;
  for (size_t i = 0; i <= chunk.size(); ++i) {
    if (i == chunk.size() || chunk[i] == '_' || chunk[i] == '.') {
      if (i > start) camel_split(chunk.substr(start, i - start), pieces);
      start = i + 1;
    }
  }
  for (auto p : pieces) emit_part(p, sink);
}

void tokenize(std::string_view text, TokenSink& sink) {
  size_t line_start = 0;
  while (line_start <= text.size()) {
    size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::string_view line = text.substr(line_start, line_end - line_start);
    sink.clause_break();
    if (!is_trailer_line(line)) {
      size_t i = 0;
      while (i < line.size()) {
        // Whitespace-separated tokens; URLs and e-mail addresses are skipped whole.
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        size_t j = i;
        while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
        std::string_view token = line.substr(i, j - i);
        // "RISC-V" is one word, not "risc" and a dropped "v".
        std::string joined;
        if (const size_t at = lower_find(token, "risc-v"); at != std::string_view::npos) {
          joined = std::string(token.substr(0, at + 4)) + std::string(token.substr(at + 5));
          token = joined;
        }
        if (token.find("://") != std::string_view::npos || token.find('@') != std::string_view::npos ||
            token.starts_with("www.")) {
          sink.clause_break();
          i = j;
          continue;
        }
        size_t k = 0;
        while (k < token.size()) {
          if (!is_word_char(token[k])) {
            if (token[k] != '-' && token[k] != '/' && token[k] != '*' && token[k] != '#' && token[k] != '+')
              sink.clause_break();
            ++k;
            continue;
          }
          size_t e = k;
          while (e < token.size() && is_word_char(token[e])) ++e;
          emit_chunk(token.substr(k, e - k), sink);
          if (token[e - 1] == '.') sink.clause_break();  // end of a sentence
          k = e;
        }
        i = j;
      }
    }
    if (line_end == text.size()) break;
    line_start = line_end + 1;
  }
}

std::string with_commas(size_t n) {
  const std::string digits = std::to_string(n);
  std::string s;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

// ---- the randomized SVD -----------------------------------------------------------------------------

using Dense = Eigen::MatrixXd;
using Sparse = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// Standard normal numbers from our own Box-Muller over mt19937_64: std::normal_distribution differs between
// standard libraries, and the model must not.
Dense gaussian(Eigen::Index rows, Eigen::Index cols, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform = [&] { return (static_cast<double>(rng() >> 11) + 1.0) * 0x1.0p-53; };  // (0, 1]
  Dense m(rows, cols);
  for (Eigen::Index c = 0; c < cols; ++c) {
    for (Eigen::Index r = 0; r < rows; r += 2) {
      const double radius = std::sqrt(-2.0 * std::log(uniform())), angle = 2.0 * std::numbers::pi * uniform();
      m(r, c) = radius * std::cos(angle);
      if (r + 1 < rows) m(r + 1, c) = radius * std::sin(angle);
    }
  }
  return m;
}

Dense orthonormal_basis(const Dense& y) {
  Eigen::HouseholderQR<Dense> qr(y);
  return qr.householderQ() * Dense::Identity(y.rows(), y.cols());
}

struct Svd {
  Dense components;  // terms x k: right singular vectors
  Eigen::VectorXd singular_values;
};

// Top-k right singular vectors of x (documents x terms) by the randomized range finder with power
// iterations (Halko, Martinsson, Tropp 2011), finished on the small Gram matrix of the projected problem.
Svd truncated_svd(const Sparse& x, Eigen::Index k, Eigen::Index oversample, size_t power_iterations, uint64_t seed) {
  const Eigen::Index rank_bound = std::min(x.rows(), x.cols());
  const Eigen::Index l = std::min(k + oversample, rank_bound);
  Dense q = orthonormal_basis(x * gaussian(x.cols(), l, seed));
  for (size_t i = 0; i < power_iterations; ++i) {
    const Dense z = orthonormal_basis(x.transpose() * q);
    q = orthonormal_basis(x * z);
  }
  const Dense bt = x.transpose() * q;  // terms x l: B^T with B = Q^T X
  const Dense gram = bt.transpose() * bt;
  Eigen::SelfAdjointEigenSolver<Dense> eig(gram);
  const Eigen::VectorXd& lambda = eig.eigenvalues();  // ascending
  const double top = std::max(lambda(l - 1), 0.0);
  Svd out;
  std::vector<Eigen::Index> keep;
  for (Eigen::Index i = l - 1; i >= 0 && static_cast<Eigen::Index>(keep.size()) < k; --i) {
    // Directions the corpus does not span (a tiny vocabulary) are noise, not dimensions.
    if (lambda(i) <= top * 1e-10 || lambda(i) <= 0) break;
    keep.push_back(i);
  }
  out.components.resize(x.cols(), static_cast<Eigen::Index>(keep.size()));
  out.singular_values.resize(static_cast<Eigen::Index>(keep.size()));
  for (size_t c = 0; c < keep.size(); ++c) {
    const double sigma = std::sqrt(lambda(keep[c]));
    Eigen::VectorXd v = bt * eig.eigenvectors().col(keep[c]) / sigma;
    v.normalize();
    // Fix the sign (the largest coordinate positive) so that the model does not depend on solver details.
    Eigen::Index arg = 0;
    v.cwiseAbs().maxCoeff(&arg);
    if (v(arg) < 0) v = -v;
    const auto col = static_cast<Eigen::Index>(c);
    out.components.col(col) = v;
    out.singular_values(col) = sigma;
  }
  return out;
}

constexpr char kMagic[8] = {'E', 'O', 'K', 'T', 'S', 'V', 'D', '1'};
constexpr int kFormat = 1;

}  // namespace

// ---- terms ------------------------------------------------------------------------------------------

std::vector<std::string> code_tokens(std::string_view text, const TokenizerOptions& options) {
  std::vector<std::string> tokens;
  TokenSink sink(&tokens, nullptr, options.bigrams);
  tokenize(text, sink);
  return tokens;
}

std::vector<Word> code_words(std::string_view text) {
  std::vector<Word> words;
  TokenSink sink(nullptr, &words, false);
  tokenize(text, sink);
  return words;
}

// ---- TF-IDF ------------------------------------------------------------------------------------------

TfidfModel::TfidfModel(std::vector<std::string> terms, std::vector<float> idf, size_t documents)
    : terms_(std::move(terms)), idf_(std::move(idf)), documents_(documents) {
  if (terms_.size() != idf_.size())
    throw Error("TF-IDF model: " + std::to_string(terms_.size()) + " terms but " + std::to_string(idf_.size()) +
                " idf values");
  index_.reserve(terms_.size());
  for (size_t i = 0; i < terms_.size(); ++i) index_.emplace(terms_[i], static_cast<uint32_t>(i));
}

TfidfModel TfidfModel::fit(const std::vector<std::vector<std::string>>& docs, size_t min_df, size_t max_terms) {
  std::unordered_map<std::string, uint32_t> df;
  std::vector<std::string_view> seen;
  for (const auto& doc : docs) {
    seen.assign(doc.begin(), doc.end());
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    for (auto t : seen) ++df[std::string(t)];
  }
  std::vector<std::pair<std::string, uint32_t>> kept;
  for (auto& [term, count] : df) {
    if (count >= std::max<size_t>(min_df, 1)) kept.emplace_back(term, count);
  }
  if (kept.size() > max_terms) {
    std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    kept.resize(max_terms);
  }
  std::sort(kept.begin(), kept.end());
  std::vector<std::string> terms;
  std::vector<float> idf;
  const double n = static_cast<double>(docs.size());
  for (auto& [term, count] : kept) {
    terms.push_back(term);
    idf.push_back(static_cast<float>(std::log((1.0 + n) / (1.0 + count)) + 1.0));
  }
  return TfidfModel(std::move(terms), std::move(idf), docs.size());
}

std::optional<uint32_t> TfidfModel::find(std::string_view term) const {
  auto it = index_.find(std::string(term));
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

float TfidfModel::idf_of(std::string_view term) const {
  if (auto i = find(term)) return idf_[*i];
  return static_cast<float>(std::log(1.0 + static_cast<double>(documents_)) + 1.0);
}

SparseVector TfidfModel::transform(const std::vector<std::string>& terms) const {
  std::vector<uint32_t> ids;
  ids.reserve(terms.size());
  for (const auto& t : terms) {
    auto it = index_.find(t);
    if (it != index_.end()) ids.push_back(it->second);
  }
  std::sort(ids.begin(), ids.end());
  SparseVector v;
  double norm = 0;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j < ids.size() && ids[j] == ids[i]) ++j;
    const float w = static_cast<float>((1.0 + std::log(static_cast<double>(j - i))) * idf_[ids[i]]);
    v.index.push_back(ids[i]);
    v.value.push_back(w);
    norm += static_cast<double>(w) * w;
    i = j;
  }
  if (norm > 0) {
    const float inv = static_cast<float>(1.0 / std::sqrt(norm));
    for (auto& x : v.value) x *= inv;
  }
  return v;
}

// ---- the embedder ------------------------------------------------------------------------------------

OfflineEmbedder OfflineEmbedder::fit(const std::vector<std::string>& corpus, const OfflineEmbedderOptions& options) {
  if (options.dim == 0) throw ConfigError("offline embedder: dim must be at least 1");
  OfflineEmbedder e;
  e.tokenizer_.bigrams = options.bigrams;
  e.seed_ = options.seed;
  std::vector<std::vector<std::string>> docs;
  docs.reserve(corpus.size());
  for (const auto& text : corpus) docs.push_back(code_tokens(text, e.tokenizer_));
  // A small corpus (tests, a handful of documents) cannot afford to lose its once-seen terms.
  const size_t min_df = corpus.size() < 50 ? 1 : options.min_df;
  e.tfidf_ = TfidfModel::fit(docs, min_df, options.max_terms);
  if (e.tfidf_.size() == 0) {
    throw Error("offline embedder: the " + std::to_string(corpus.size()) +
                " texts to fit on have no usable term (empty, or only numbers and stop words); give it real text");
  }

  std::vector<Eigen::Triplet<double>> triplets;
  for (size_t d = 0; d < docs.size(); ++d) {
    const SparseVector v = e.tfidf_.transform(docs[d]);
    for (size_t i = 0; i < v.index.size(); ++i)
      triplets.emplace_back(static_cast<int>(d), static_cast<int>(v.index[i]), v.value[i]);
  }
  Sparse x(static_cast<Eigen::Index>(docs.size()), static_cast<Eigen::Index>(e.tfidf_.size()));
  x.setFromTriplets(triplets.begin(), triplets.end());
  x.makeCompressed();

  // A small corpus gets fewer dimensions: the SVD generalises (puts "fma" near "vfmacc") only when it
  // must compress; with as many dimensions as texts every text keeps its own direction.
  const size_t span = std::min(docs.size(), e.tfidf_.size());
  const size_t k_cap = std::max<size_t>(2, span / std::max<size_t>(options.texts_per_dim, 1));
  const auto k = static_cast<Eigen::Index>(std::min({options.dim, k_cap, span}));
  const Svd svd =
      truncated_svd(x, k, static_cast<Eigen::Index>(options.oversample), options.power_iterations, options.seed);
  if (svd.components.cols() == 0) throw Error("offline embedder: the corpus spans no dimension (all texts empty?)");
  e.dim_ = static_cast<size_t>(svd.components.cols());
  e.components_.resize(e.tfidf_.size() * e.dim_);
  for (Eigen::Index t = 0; t < svd.components.rows(); ++t) {
    for (Eigen::Index c = 0; c < svd.components.cols(); ++c) {
      e.components_[static_cast<size_t>(t) * e.dim_ + static_cast<size_t>(c)] =
          static_cast<float>(svd.components(t, c));
    }
  }
  for (Eigen::Index c = 0; c < svd.singular_values.size(); ++c)
    e.singular_values_.push_back(static_cast<float>(svd.singular_values(c)));
  e.compute_fingerprint();
  return e;
}

std::vector<float> OfflineEmbedder::embed_one(std::string_view text) const {
  const SparseVector v = tfidf_.transform(code_tokens(text, tokenizer_));
  std::vector<float> out(dim_, 0.0f);
  for (size_t i = 0; i < v.index.size(); ++i) {
    const float w = v.value[i];
    const float* row = components_.data() + static_cast<size_t>(v.index[i]) * dim_;
    for (size_t c = 0; c < dim_; ++c) out[c] += w * row[c];
  }
  double norm = 0;
  for (float x : out) norm += static_cast<double>(x) * x;
  if (norm > 0) {
    const float inv = static_cast<float>(1.0 / std::sqrt(norm));
    for (auto& x : out) x *= inv;
  }
  return out;
}

std::vector<std::vector<float>> OfflineEmbedder::embed(const std::vector<std::string>& texts) {
  std::vector<std::vector<float>> out;
  out.reserve(texts.size());
  for (const auto& t : texts) out.push_back(embed_one(t));
  return out;
}

std::string OfflineEmbedder::name() const {
  return "offline-tfidf-svd-" + std::to_string(dim_);
}

std::string OfflineEmbedder::describe() const {
  return name() + " (" + with_commas(tfidf_.size()) + " terms, fitted on " + with_commas(tfidf_.documents()) +
         " texts)";
}

void OfflineEmbedder::compute_fingerprint() {
  Hasher h;
  h.add(name()).add(tokenizer_.bigrams ? "bigrams" : "unigrams");
  for (const auto& t : tfidf_.terms()) h.add(t);
  h.add(std::string_view(reinterpret_cast<const char*>(tfidf_.idf().data()), tfidf_.idf().size() * sizeof(float)));
  h.add(std::string_view(reinterpret_cast<const char*>(components_.data()), components_.size() * sizeof(float)));
  fingerprint_ = h.hex();
}

void OfflineEmbedder::save(const std::filesystem::path& file) const {
  const std::string_view blob(reinterpret_cast<const char*>(components_.data()), components_.size() * sizeof(float));
  const nlohmann::json header = {{"format", kFormat},
                                 {"kind", name()},
                                 {"dim", dim_},
                                 {"documents", tfidf_.documents()},
                                 {"bigrams", tokenizer_.bigrams},
                                 {"seed", seed_},
                                 {"singular_values", singular_values_},
                                 {"terms", tfidf_.terms()},
                                 {"idf", tfidf_.idf()},
                                 {"components_hash", content_hash(blob)},
                                 {"fingerprint", fingerprint_}};
  const std::string head = header.dump();
  std::string data(kMagic, sizeof kMagic);
  const uint64_t head_size = head.size();
  data.append(reinterpret_cast<const char*>(&head_size), sizeof head_size);
  data += head;
  data.append(blob);
  write_file_atomic(file, data);
}

OfflineEmbedder OfflineEmbedder::load(const std::filesystem::path& file) {
  const std::string data = read_file(file);  // NotFoundError names the file
  auto corrupt = [&](const std::string& why) {
    return CorruptDataError("offline embedder model " + file.string() + ": " + why +
                            "; delete it and fit the model again (eok mine does so)");
  };
  if (data.size() < sizeof kMagic + 8 || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0) {
    throw corrupt("not a model file of this eok (wrong magic)");
  }
  uint64_t head_size = 0;
  std::memcpy(&head_size, data.data() + sizeof kMagic, sizeof head_size);
  const size_t head_start = sizeof kMagic + sizeof head_size;
  if (head_size > data.size() - head_start) throw corrupt("truncated header");
  nlohmann::json h;
  try {
    h = nlohmann::json::parse(data.substr(head_start, head_size));
  } catch (const nlohmann::json::exception& ex) {
    throw corrupt(std::string("unreadable header: ") + ex.what());
  }
  OfflineEmbedder e;
  try {
    if (h.at("format").get<int>() != kFormat)
      throw corrupt("format " + h.at("format").dump() + " is not " + std::to_string(kFormat));
    e.dim_ = h.at("dim").get<size_t>();
    e.tokenizer_.bigrams = h.at("bigrams").get<bool>();
    e.seed_ = h.at("seed").get<uint64_t>();
    e.singular_values_ = h.at("singular_values").get<std::vector<float>>();
    e.tfidf_ = TfidfModel(h.at("terms").get<std::vector<std::string>>(), h.at("idf").get<std::vector<float>>(),
                          h.at("documents").get<size_t>());
  } catch (const nlohmann::json::exception& ex) {
    throw corrupt(std::string("bad header: ") + ex.what());
  } catch (const CorruptDataError&) {
    throw;
  } catch (const Error& ex) {
    throw corrupt(ex.what());
  }
  const size_t floats = e.tfidf_.size() * e.dim_;
  const std::string_view blob(data.data() + head_start + head_size, data.size() - head_start - head_size);
  if (e.dim_ == 0 || blob.size() != floats * sizeof(float))
    throw corrupt("the components are truncated or of the wrong size");
  if (content_hash(blob) != h.value("components_hash", "")) throw corrupt("checksum mismatch");
  e.components_.resize(floats);
  std::memcpy(e.components_.data(), blob.data(), blob.size());
  e.compute_fingerprint();
  return e;
}

}  // namespace eok::rag
