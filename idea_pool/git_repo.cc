#include "idea_pool/git_repo.h"

#include <git2.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "src/common/error.h"

namespace eok::idea_pool {

namespace fs = std::filesystem;

namespace {

void init_libgit2() {
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();
    // libgit2 hashes every object it reads again to check its id; git itself does not on reads, and for
    // a history walk it is 40 % of the time. Clones and fetches still verify what they receive.
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
  });
}

std::string last_error() {
  const git_error* e = git_error_last();
  return e && e->message ? e->message : "unknown libgit2 error";
}

// RAII holders for libgit2 objects.
template <typename T, void (*Free)(T*)>
struct Owned {
  T* p = nullptr;
  Owned() = default;
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Owned(Owned&& o) noexcept : p(std::exchange(o.p, nullptr)) {}
  Owned& operator=(Owned&& o) noexcept {
    if (this != &o) {
      if (p) Free(p);
      p = std::exchange(o.p, nullptr);
    }
    return *this;
  }
  ~Owned() {
    if (p) Free(p);
  }
  T** out() { return &p; }
  T* get() const { return p; }
};
using Commit = Owned<git_commit, git_commit_free>;
using Tree = Owned<git_tree, git_tree_free>;
using Blob = Owned<git_blob, git_blob_free>;
using Diff = Owned<git_diff, git_diff_free>;
using Patch = Owned<git_patch, git_patch_free>;
using Walk = Owned<git_revwalk, git_revwalk_free>;
using Object = Owned<git_object, git_object_free>;
using BranchIter = Owned<git_branch_iterator, git_branch_iterator_free>;

std::string sha_of(const git_oid* oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, oid);
  return buf;
}

git_oid oid_of(const std::string& sha) {
  git_oid oid;
  if (sha.size() != GIT_OID_HEXSZ || git_oid_fromstr(&oid, sha.c_str()) != 0) {
    throw NotFoundError("not a commit id: '" + sha + "' (expected 40 hex digits; resolve() turns names into ids)");
  }
  return oid;
}

CommitInfo info_of(const git_commit* c) {
  CommitInfo i;
  i.sha = sha_of(git_commit_id(c));
  for (unsigned k = 0; k < git_commit_parentcount(c); ++k) i.parents.push_back(sha_of(git_commit_parent_id(c, k)));
  if (const git_signature* a = git_commit_author(c); a && a->name) i.author = a->name;
  i.time = static_cast<int64_t>(git_commit_time(c));
  if (const char* m = git_commit_message(c)) i.message = m;
  i.title = i.message.substr(0, i.message.find('\n'));
  if (!i.title.empty() && i.title.back() == '\r') i.title.pop_back();
  return i;
}

struct OidHash {
  size_t operator()(const git_oid& o) const {
    size_t h;
    std::memcpy(&h, o.id, sizeof h);  // an object id is already uniformly distributed
    return h;
  }
};
struct OidEq {
  bool operator()(const git_oid& a, const git_oid& b) const { return git_oid_equal(&a, &b) != 0; }
};

bool is_blob_mode(git_filemode_t m) {
  return m == GIT_FILEMODE_BLOB || m == GIT_FILEMODE_BLOB_EXECUTABLE || m == GIT_FILEMODE_LINK;
}

// Compares two trees entry by entry in git's order and descends only into subtrees whose ids differ:
// a commit that touches three files reads a handful of trees, not the whole checkout (libgit2's
// tree-to-tree diff visits every entry of both trees).
class TreeDiffer {
 public:
  TreeDiffer(git_repository* repo, const std::string& sha, std::vector<FileChange>& out)
      : repo_(repo), sha_(sha), out_(out) {}

  void compare(const git_tree* a, const git_tree* b, const std::string& prefix) {
    const size_t na = a ? git_tree_entrycount(a) : 0, nb = b ? git_tree_entrycount(b) : 0;
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
      const git_tree_entry* ea = i < na ? git_tree_entry_byindex(a, i) : nullptr;
      const git_tree_entry* eb = j < nb ? git_tree_entry_byindex(b, j) : nullptr;
      const int cmp = !ea ? 1 : !eb ? -1 : git_tree_entry_cmp(ea, eb);
      if (cmp < 0) {
        side(ea, 'D', prefix);
        ++i;
      } else if (cmp > 0) {
        side(eb, 'A', prefix);
        ++j;
      } else {
        both(ea, eb, prefix);
        ++i;
        ++j;
      }
    }
  }

 private:
  Tree subtree(const git_tree_entry* e) {
    Tree t;
    if (git_tree_lookup(t.out(), repo_, git_tree_entry_id(e)) != 0) {
      throw Error("cannot read a tree of commit " + sha_ + ": " + last_error() + " (is the clone complete?)");
    }
    return t;
  }

  // An entry present on one side only: a file, or a whole directory of them.
  void side(const git_tree_entry* e, char status, const std::string& prefix) {
    const std::string path = prefix + git_tree_entry_name(e);
    if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
      Tree t = subtree(e);
      compare(status == 'D' ? t.get() : nullptr, status == 'A' ? t.get() : nullptr, path + "/");
      return;
    }
    FileChange f;
    f.path = path;
    f.status = status;
    note_contents(f, status == 'D' ? e : nullptr, status == 'A' ? e : nullptr);
    out_.push_back(std::move(f));
  }

  // An entry present on both sides (git's order keeps a file and a directory of the same name apart).
  void both(const git_tree_entry* ea, const git_tree_entry* eb, const std::string& prefix) {
    if (git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb)) &&
        git_tree_entry_filemode(ea) == git_tree_entry_filemode(eb)) {
      return;
    }
    const std::string path = prefix + git_tree_entry_name(ea);
    if (git_tree_entry_type(ea) == GIT_OBJECT_TREE) {
      Tree ta = subtree(ea), tb = subtree(eb);
      compare(ta.get(), tb.get(), path + "/");
      return;
    }
    FileChange f;
    f.path = path;
    const bool same_kind =
        (git_tree_entry_filemode(ea) == GIT_FILEMODE_LINK) == (git_tree_entry_filemode(eb) == GIT_FILEMODE_LINK) &&
        is_blob_mode(git_tree_entry_filemode(ea)) == is_blob_mode(git_tree_entry_filemode(eb));
    f.status = same_kind ? 'M' : 'T';
    note_contents(f, ea, eb);
    out_.push_back(std::move(f));
  }

  // Blob ids for later diffs; a submodule (a commit id) has no text to diff.
  static void note_contents(FileChange& f, const git_tree_entry* old_e, const git_tree_entry* new_e) {
    for (auto [e, id] : {std::pair{old_e, &f.old_blob}, std::pair{new_e, &f.new_blob}}) {
      if (!e) continue;
      if (is_blob_mode(git_tree_entry_filemode(e))) {
        *id = sha_of(git_tree_entry_id(e));
      } else {
        f.binary = true;
      }
    }
  }

  git_repository* repo_;
  const std::string& sha_;
  std::vector<FileChange>& out_;
};

// The trees of a commit and of its first parent (none for a root commit).
struct CommitTrees {
  Commit commit, parent;
  Tree tree, parent_tree;
};

void load_trees(git_repository* repo, const fs::path& path, const CommitInfo& info, CommitTrees& t) {
  git_oid oid = oid_of(info.sha);
  if (git_commit_lookup(t.commit.out(), repo, &oid) != 0 || git_commit_tree(t.tree.out(), t.commit.get()) != 0) {
    throw Error("cannot read commit " + info.sha + " in " + path.string() + ": " + last_error());
  }
  if (git_commit_parentcount(t.commit.get()) > 0) {
    if (git_commit_parent(t.parent.out(), t.commit.get(), 0) != 0 ||
        git_commit_tree(t.parent_tree.out(), t.parent.get()) != 0) {
      throw Error("cannot read the parent of " + info.sha + " in " + path.string() + ": " + last_error() +
                  (git_repository_is_shallow(repo) == 1 ? " (a shallow clone: run git fetch --unshallow)" : ""));
    }
  }
}

// Turns additions and deletions of the same contents into renames, like git does before it compares
// contents; then asks libgit2 to pair the rest by similarity, on those paths only.
void find_renames(git_repository* repo, const CommitTrees& t, std::vector<FileChange>& files) {
  std::unordered_map<std::string, std::vector<size_t>> deleted_by_blob;
  size_t added = 0;
  for (size_t k = 0; k < files.size(); ++k) {
    if (files[k].status == 'D' && !files[k].old_blob.empty()) deleted_by_blob[files[k].old_blob].push_back(k);
    added += files[k].status == 'A';
  }
  if (deleted_by_blob.empty() || added == 0) return;
  std::vector<bool> gone(files.size(), false);
  for (auto& f : files) {
    if (f.status != 'A' || f.new_blob.empty()) continue;
    auto it = deleted_by_blob.find(f.new_blob);
    if (it == deleted_by_blob.end() || it->second.empty()) continue;
    const size_t d = it->second.back();
    it->second.pop_back();
    f.status = 'R';
    f.old_path = files[d].path;
    f.old_blob = files[d].old_blob;
    gone[d] = true;
  }

  std::vector<std::string> paths;
  std::unordered_map<std::string, size_t> index;
  size_t left_added = 0, left_deleted = 0;
  for (size_t k = 0; k < files.size(); ++k) {
    if (gone[k] || (files[k].status != 'A' && files[k].status != 'D')) continue;
    (files[k].status == 'A' ? left_added : left_deleted)++;
    paths.push_back(files[k].path);
    index[files[k].path] = k;
  }
  if (left_added > 0 && left_deleted > 0) {
    std::vector<char*> ptrs;
    for (auto& p : paths) ptrs.push_back(p.data());
    git_diff_options opts;
    git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
    opts.flags = GIT_DIFF_DISABLE_PATHSPEC_MATCH;
    opts.pathspec = {ptrs.data(), ptrs.size()};
    Diff diff;
    git_diff_find_options find;
    git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
    find.flags = GIT_DIFF_FIND_RENAMES;
    if (git_diff_tree_to_tree(diff.out(), repo, t.parent_tree.get(), t.tree.get(), &opts) == 0 &&
        git_diff_find_similar(diff.get(), &find) == 0) {
      for (size_t k = 0; k < git_diff_num_deltas(diff.get()); ++k) {
        const git_diff_delta* d = git_diff_get_delta(diff.get(), k);
        if (d->status != GIT_DELTA_RENAMED) continue;
        auto from = index.find(d->old_file.path), to = index.find(d->new_file.path);
        if (from == index.end() || to == index.end()) continue;
        FileChange& f = files[to->second];
        f.status = 'R';
        f.old_path = files[from->second].path;
        f.old_blob = files[from->second].old_blob;
        gone[from->second] = true;
      }
    }
  }
  size_t w = 0;
  for (size_t k = 0; k < files.size(); ++k) {
    if (gone[k]) continue;
    if (w != k) files[w] = std::move(files[k]);
    ++w;
  }
  files.resize(w);
}

Blob load_blob(git_repository* repo, const std::string& id) {
  Blob b;
  if (id.empty()) return b;
  git_oid oid = oid_of(id);
  if (git_blob_lookup(b.out(), repo, &oid) != 0) throw Error("cannot read file contents " + id + ": " + last_error());
  return b;
}

// The patch of one changed file and the contents it points into (a patch made from buffers does not copy
// them, so they live as long as it does).
struct FilePatch {
  Blob old_blob, new_blob;
  Patch patch;  // declared last: freed first
};

// Fills the entry's line counts and binary flag.
FilePatch patch_of(git_repository* repo, FileChange& f) {
  FilePatch fp;
  if (f.binary) return fp;  // a submodule: nothing to read
  fp.old_blob = load_blob(repo, f.old_blob);
  fp.new_blob = load_blob(repo, f.new_blob);
  git_diff_options opts;
  git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
  opts.context_lines = 3;
  // From buffers, not blobs: with a repository at hand libgit2 looks up a diff driver in .gitattributes
  // for every file (a dozen system calls each, and in a bare clone without a config file it reads the
  // attributes of the directory around it). The miner wants the plain contents; diff_files writes the
  // header itself.
  auto data = [](const Blob& b) { return b.get() ? static_cast<const char*>(git_blob_rawcontent(b.get())) : nullptr; };
  auto size = [](const Blob& b) { return b.get() ? static_cast<size_t>(git_blob_rawsize(b.get())) : size_t{0}; };
  if (git_patch_from_buffers(fp.patch.out(), data(fp.old_blob), size(fp.old_blob), nullptr, data(fp.new_blob),
                             size(fp.new_blob), nullptr, &opts) != 0) {
    throw Error("cannot diff " + f.path + ": " + last_error());
  }
  if (git_patch_get_delta(fp.patch.get())->flags & GIT_DIFF_FLAG_BINARY) {
    f.binary = true;
    return fp;
  }
  size_t context = 0;
  git_patch_line_stats(&context, &f.additions, &f.deletions, fp.patch.get());
  return fp;
}

// "diff --git" header of one file, as git writes it (without the index line: blob ids mean nothing to a reader).
std::string patch_header(const FileChange& f) {
  const std::string& from = f.old_path.empty() ? f.path : f.old_path;
  std::string h = "diff --git a/" + from + " b/" + f.path + "\n";
  if (f.status == 'R') h += "rename from " + from + "\nrename to " + f.path + "\n";
  if (f.status == 'A') h += "new file\n";
  if (f.status == 'D') h += "deleted file\n";
  h += f.status == 'A' ? "--- /dev/null\n" : "--- a/" + from + "\n";
  h += f.status == 'D' ? "+++ /dev/null\n" : "+++ b/" + f.path + "\n";
  return h;
}

// Appends hunk headers and lines of a patch ("+", "-", " " lines; "\ No newline" notes come as content).
int append_line(const git_diff_delta*, const git_diff_hunk*, const git_diff_line* line, void* payload) {
  auto* out = static_cast<std::string*>(payload);
  switch (line->origin) {
    case GIT_DIFF_LINE_FILE_HDR:
      return 0;
    case GIT_DIFF_LINE_CONTEXT:
    case GIT_DIFF_LINE_ADDITION:
    case GIT_DIFF_LINE_DELETION:
      out->push_back(line->origin);
      break;
    default:
      break;
  }
  out->append(line->content, line->content_len);
  return 0;
}

// Reads contents with white space reduced to what separates two words ("int  a" and "int a" stay apart
// from "inta"): two versions read alike exactly when they differ only in layout.
class LayoutFree {
 public:
  LayoutFree(const char* p, size_t n) : p_(p), end_(p + n) {}

  // The next character, -1 at the end.
  int next() {
    if (pending_ >= 0) {
      last_ = static_cast<char>(pending_);
      return std::exchange(pending_, -1);
    }
    bool gap = false;
    while (p_ < end_ && space(*p_)) {
      gap = true;
      ++p_;
    }
    if (p_ == end_) return -1;
    const char ch = *p_++;
    if (gap && word(last_) && word(ch)) {
      pending_ = static_cast<unsigned char>(ch);
      return ' ';
    }
    last_ = ch;
    return static_cast<unsigned char>(ch);
  }

 private:
  static bool space(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v'; }
  static bool word(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
  }
  const char* p_;
  const char* end_;
  char last_ = 0;
  int pending_ = -1;
};

bool same_but_layout(const git_blob* a, const git_blob* b) {
  LayoutFree x(static_cast<const char*>(git_blob_rawcontent(a)), static_cast<size_t>(git_blob_rawsize(a)));
  LayoutFree y(static_cast<const char*>(git_blob_rawcontent(b)), static_cast<size_t>(git_blob_rawsize(b)));
  while (true) {
    const int cx = x.next();
    if (cx != y.next()) return false;
    if (cx < 0) return true;
  }
}

}  // namespace

void GitRepo::Deleter::operator()(git_repository* r) const {
  git_repository_free(r);
}

GitRepo::GitRepo(fs::path path, git_repository* repo) : path_(std::move(path)), repo_(repo) {}
GitRepo::GitRepo(GitRepo&&) noexcept = default;
GitRepo& GitRepo::operator=(GitRepo&&) noexcept = default;
GitRepo::~GitRepo() = default;

GitRepo GitRepo::open(const fs::path& path) {
  init_libgit2();
  git_repository* repo = nullptr;
  if (git_repository_open_ext(&repo, path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    throw NotFoundError(path.string() + " is not a git repository (" + last_error() + "); pass a clone of the library");
  }
  GitRepo r(path, repo);
  // No reference at all: libgit2's own git_repository_is_empty answers "no" when HEAD names a branch
  // other than the configured initial one (main vs master).
  git_reference_iterator* refs = nullptr;
  git_reference* first = nullptr;
  bool empty = false;
  if (git_reference_iterator_new(&refs, repo) == 0) {
    empty = git_reference_next(&first, refs) == GIT_ITEROVER;
    git_reference_free(first);
    git_reference_iterator_free(refs);
  }
  if (empty || git_repository_is_empty(repo) == 1) {
    throw Error(path.string() + " is an empty repository: it has no commits to mine; pass a clone with history");
  }
  return r;
}

bool GitRepo::is_shallow() const {
  return git_repository_is_shallow(repo_.get()) == 1;
}

std::vector<std::string> GitRepo::branches() const {
  std::vector<std::string> names;
  BranchIter it;
  if (git_branch_iterator_new(it.out(), repo_.get(), GIT_BRANCH_ALL) != 0) return names;
  git_reference* ref = nullptr;
  git_branch_t type;
  while (git_branch_next(&ref, &type, it.get()) == 0) {
    const char* name = nullptr;
    if (git_branch_name(&name, ref) == 0 && name) names.emplace_back(name);
    git_reference_free(ref);
  }
  return names;
}

std::string GitRepo::resolve(const std::string& rev) const {
  Object obj, peeled;
  if (rev.empty() || git_revparse_single(obj.out(), repo_.get(), rev.c_str()) != 0 ||
      git_object_peel(peeled.out(), obj.get(), GIT_OBJECT_COMMIT) != 0) {
    std::string known;
    for (const auto& b : branches()) known += " " + b;
    throw NotFoundError("'" + rev + "' names no commit in " + path_.string() +
                        "; branches:" + (known.empty() ? " none" : known));
  }
  return sha_of(git_object_id(peeled.get()));
}

CommitInfo GitRepo::commit(const std::string& sha) const {
  git_oid oid = oid_of(sha);
  Commit c;
  if (git_commit_lookup(c.out(), repo_.get(), &oid) != 0) {
    throw NotFoundError("commit " + sha + " is not in " + path_.string() +
                        (is_shallow() ? " (a shallow clone: fetch its full history)" : ""));
  }
  return info_of(c.get());
}

void GitRepo::walk(const std::string& tip, const std::vector<std::string>& hide,
                   const std::function<bool(const CommitInfo&)>& visit) const {
  Walk w;
  if (git_revwalk_new(w.out(), repo_.get()) != 0) throw Error("cannot walk " + path_.string() + ": " + last_error());
  git_revwalk_sorting(w.get(), GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
  git_oid start = oid_of(tip);
  if (git_revwalk_push(w.get(), &start) != 0)
    throw NotFoundError("cannot walk from " + tip + " in " + path_.string() + ": " + last_error());
  for (const auto& h : hide) {
    git_oid oid = oid_of(h);
    if (git_revwalk_hide(w.get(), &oid) != 0)
      throw NotFoundError("cannot walk past " + h + " in " + path_.string() + ": " + last_error());
  }
  git_oid oid;
  while (true) {
    const int rc = git_revwalk_next(&oid, w.get());
    if (rc == GIT_ITEROVER) break;
    if (rc != 0) {
      throw Error("walking " + path_.string() + " failed: " + last_error() +
                  (is_shallow() ? " (a shallow clone: fetch its full history with git fetch --unshallow)" : ""));
    }
    Commit c;
    if (git_commit_lookup(c.out(), repo_.get(), &oid) != 0)
      throw Error("cannot read commit " + sha_of(&oid) + ": " + last_error());
    if (!visit(info_of(c.get()))) break;
  }
}

std::vector<CommitInfo> GitRepo::history(const std::string& tip, std::vector<std::string>* boundary) const {
  // Read every reachable commit once (depth first), remembering parent links by index.
  struct Node {
    CommitInfo info;
    std::vector<git_oid> parents;
  };
  std::vector<Node> nodes;
  std::unordered_map<git_oid, uint32_t, OidHash, OidEq> index;
  std::unordered_set<git_oid, OidHash, OidEq> missing;
  std::vector<git_oid> stack{oid_of(tip)};
  while (!stack.empty()) {
    const git_oid oid = stack.back();
    stack.pop_back();
    if (index.count(oid) || missing.count(oid)) continue;
    Commit c;
    if (git_commit_lookup(c.out(), repo_.get(), &oid) != 0) {
      if (nodes.empty()) throw NotFoundError("commit " + tip + " is not in " + path_.string() + ": " + last_error());
      missing.insert(oid);  // beyond a shallow clone's boundary
      continue;
    }
    index.emplace(oid, static_cast<uint32_t>(nodes.size()));
    Node n{info_of(c.get()), {}};
    for (unsigned k = 0; k < git_commit_parentcount(c.get()); ++k)
      n.parents.push_back(*git_commit_parent_id(c.get(), k));
    for (auto it = n.parents.rbegin(); it != n.parents.rend(); ++it) stack.push_back(*it);
    nodes.push_back(std::move(n));
  }

  // Kahn's algorithm: a commit is emitted once all its children are; among the ready ones the newest first.
  const size_t n = nodes.size();
  std::vector<uint32_t> children_left(n, 0);
  std::vector<std::vector<uint32_t>> parent_ix(n);
  for (uint32_t i = 0; i < n; ++i) {
    for (const git_oid& p : nodes[i].parents) {
      auto it = index.find(p);
      if (it == index.end()) {
        if (boundary && (boundary->empty() || boundary->back() != nodes[i].info.sha))
          boundary->push_back(nodes[i].info.sha);
        continue;
      }
      parent_ix[i].push_back(it->second);
      ++children_left[it->second];
    }
  }
  auto older = [&](uint32_t a, uint32_t b) {
    return nodes[a].info.time != nodes[b].info.time ? nodes[a].info.time < nodes[b].info.time : a > b;
  };
  std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(older)> ready(older);
  for (uint32_t i = 0; i < n; ++i) {
    if (children_left[i] == 0) ready.push(i);
  }
  std::vector<CommitInfo> out;
  out.reserve(n);
  while (!ready.empty()) {
    const uint32_t i = ready.top();
    ready.pop();
    for (uint32_t p : parent_ix[i]) {
      if (--children_left[p] == 0) ready.push(p);
    }
    out.push_back(std::move(nodes[i].info));
  }
  return out;
}

std::vector<std::string> GitRepo::first_parent_chain(const std::string& tip, const std::string& stop) const {
  std::vector<std::string> chain;
  std::string sha = tip;
  while (!sha.empty()) {
    git_oid oid = oid_of(sha);
    Commit c;
    if (git_commit_lookup(c.out(), repo_.get(), &oid) != 0) {
      if (chain.empty())
        throw NotFoundError("commit " + tip + " is not in " + path_.string() + "; resolve() names the commits there");
      break;  // the boundary of a shallow clone: list only commits that are there
    }
    chain.push_back(sha);
    if (sha == stop) break;
    sha = git_commit_parentcount(c.get()) > 0 ? sha_of(git_commit_parent_id(c.get(), 0)) : "";
  }
  return chain;
}

size_t GitRepo::count_between(const std::string& from, const std::string& to) const {
  size_t n = 0;
  walk(to, {from}, [&](const CommitInfo&) {
    ++n;
    return true;
  });
  return n;
}

std::vector<FileChange> GitRepo::changed_files(const CommitInfo& c, bool count_lines) const {
  CommitTrees t;
  load_trees(repo_.get(), path_, c, t);
  std::vector<FileChange> files;
  TreeDiffer(repo_.get(), c.sha, files).compare(t.parent_tree.get(), t.tree.get(), "");
  find_renames(repo_.get(), t, files);
  std::sort(files.begin(), files.end(), [](const FileChange& a, const FileChange& b) { return a.path < b.path; });
  if (count_lines) {
    for (auto& f : files) patch_of(repo_.get(), f);
  }
  return files;
}

std::string GitRepo::diff_files(std::vector<FileChange>& files, size_t max_bytes, bool* truncated) const {
  if (truncated) *truncated = false;
  std::string out;
  bool full = false;
  for (auto& f : files) {
    const FilePatch fp = patch_of(repo_.get(), f);
    if (full || f.binary || !fp.patch.get()) continue;
    std::string text = patch_header(f);
    if (git_patch_print(fp.patch.get(), append_line, &text) != 0)
      throw Error("cannot print the diff of " + f.path + ": " + last_error());
    if (out.size() + text.size() <= max_bytes) {
      out += text;
      continue;
    }
    // Keep whole lines that fit.
    const size_t room = max_bytes - out.size();
    const size_t cut = room == 0 ? std::string::npos : text.rfind('\n', room - 1);
    if (cut != std::string::npos) out.append(text, 0, cut + 1);
    full = true;
    if (truncated) *truncated = true;
  }
  return out;
}

std::string GitRepo::diff_text(const CommitInfo& c, const std::function<bool(const std::string&)>& include,
                               size_t max_bytes, bool* truncated) const {
  std::vector<FileChange> files = changed_files(c, false);
  std::erase_if(files, [&](const FileChange& f) { return !include(f.path); });
  return diff_files(files, max_bytes, truncated);
}

bool GitRepo::whitespace_only(const std::vector<FileChange>& files) const {
  for (const auto& f : files) {
    if (f.status != 'M' || f.binary || f.old_blob.empty() || f.new_blob.empty()) return false;
    Blob a = load_blob(repo_.get(), f.old_blob), b = load_blob(repo_.get(), f.new_blob);
    if (git_blob_is_binary(a.get()) || git_blob_is_binary(b.get()) || !same_but_layout(a.get(), b.get())) return false;
  }
  return !files.empty();
}

bool GitRepo::whitespace_only(const CommitInfo& c, const std::function<bool(const std::string&)>& include) const {
  std::vector<FileChange> files = changed_files(c, false);
  std::erase_if(files, [&](const FileChange& f) { return !include(f.path); });
  return whitespace_only(files);
}

}  // namespace eok::idea_pool
