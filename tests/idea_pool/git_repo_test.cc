#include "idea_pool/git_repo.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "support/synthetic_repo.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::idea_pool {
namespace {

namespace fs = std::filesystem;
using testing::SyntheticRepo;

std::string lines(int from, int to, const std::string& stem = "line") {
  std::string s;
  for (int k = from; k < to; ++k) s += stem + " " + std::to_string(k) + "\n";
  return s;
}

const FileChange* find(const std::vector<FileChange>& files, const std::string& path) {
  auto it = std::find_if(files.begin(), files.end(), [&](const FileChange& f) { return f.path == path; });
  return it == files.end() ? nullptr : &*it;
}

class GitRepoTest : public ::testing::Test {
 protected:
  TempDir dir{fs::temp_directory_path(), "eok-git-"};
  SyntheticRepo repo{dir.path()};
};

TEST(GitRepoOpen, ADirectoryThatIsNoRepositoryIsNotFound) {
  TempDir dir(fs::temp_directory_path(), "eok-git-");
  try {
    GitRepo::open(dir.path());
    FAIL() << "expected NotFoundError";
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("not a git repository"), std::string::npos) << e.what();
  }
}

TEST_F(GitRepoTest, AnEmptyRepositoryIsAnError) {
  try {
    GitRepo::open(dir.path());
    FAIL() << "expected Error";
  } catch (const NotFoundError&) {
    FAIL() << "an empty repository exists: it is not NotFoundError";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("empty repository"), std::string::npos) << e.what();
  }
}

TEST_F(GitRepoTest, ResolvesBranchesAndAbbreviatedShas) {
  const std::string a = repo.commit("main", "first", {{"a.c", "1\n"}});
  const std::string b = repo.commit("topic", "second", {{"b.c", "2\n"}}, a);
  GitRepo r = GitRepo::open(dir.path());
  EXPECT_EQ(r.resolve("main"), a);
  EXPECT_EQ(r.resolve("topic"), b);
  EXPECT_EQ(r.resolve(b.substr(0, 10)), b);
  auto names = r.branches();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"main", "topic"}));
  try {
    r.resolve("develop");
    FAIL() << "expected NotFoundError";
  } catch (const NotFoundError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'develop'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("main"), std::string::npos) << msg;
    EXPECT_NE(msg.find("topic"), std::string::npos) << msg;
  }
}

TEST_F(GitRepoTest, CommitInfoCarriesTheMessageAndParents) {
  const std::string a = repo.commit("main", "Title line\n\nBody text.\n", {{"a.c", "1\n"}});
  const std::string b = repo.commit("main", "Next\n", {{"a.c", "2\n"}});
  GitRepo r = GitRepo::open(dir.path());
  const CommitInfo ci = r.commit(b);
  EXPECT_EQ(ci.sha, b);
  EXPECT_EQ(ci.parents, std::vector<std::string>{a});
  EXPECT_EQ(ci.title, "Next");
  EXPECT_EQ(ci.author, "Tester");
  const CommitInfo ca = r.commit(a);
  EXPECT_EQ(ca.title, "Title line");
  EXPECT_EQ(ca.message, "Title line\n\nBody text.\n");
  EXPECT_TRUE(ca.parents.empty());
  EXPECT_LT(ca.time, ci.time);
  EXPECT_THROW(r.commit(std::string(40, 'a')), NotFoundError);
}

// The graph:   m0 - m1 ------- M2 - m3      (main)
//                     \       /
//                      t1 - t2              (topic)
class GraphTest : public GitRepoTest {
 protected:
  void SetUp() override {
    m0 = repo.commit("main", "m0", {{"a.c", "0\n"}});
    m1 = repo.commit("main", "m1", {{"a.c", "1\n"}});
    t1 = repo.commit("topic", "t1", {{"t.c", "1\n"}}, m1);
    t2 = repo.commit("topic", "t2", {{"t.c", "2\n"}});
    M2 = repo.merge("main", "topic", "Merge branch 'topic'");
    m3 = repo.commit("main", "m3", {{"a.c", "3\n"}});
  }
  std::string m0, m1, t1, t2, M2, m3;
};

TEST_F(GraphTest, FirstParentChainFollowsTheMainline) {
  GitRepo r = GitRepo::open(dir.path());
  EXPECT_EQ(r.first_parent_chain(m3), (std::vector<std::string>{m3, M2, m1, m0}));
  EXPECT_EQ(r.first_parent_chain(m3, M2), (std::vector<std::string>{m3, M2}));
  EXPECT_EQ(r.first_parent_chain(t2), (std::vector<std::string>{t2, t1, m1, m0}));
}

TEST_F(GraphTest, CountBetweenMatchesTheGraph) {
  GitRepo r = GitRepo::open(dir.path());
  EXPECT_EQ(r.count_between(m1, m3), 4u);  // t1 t2 M2 m3
  EXPECT_EQ(r.count_between(M2, m3), 1u);
  EXPECT_EQ(r.count_between(t2, m3), 2u);  // M2 m3
  EXPECT_EQ(r.count_between(m3, m1), 0u);
  EXPECT_EQ(r.count_between(m0, t2), 3u);  // m1 t1 t2
}

TEST_F(GraphTest, HistoryListsEveryCommitChildrenFirst) {
  GitRepo r = GitRepo::open(dir.path());
  std::vector<std::string> boundary;
  const auto h = r.history(m3, &boundary);
  ASSERT_EQ(h.size(), 6u);
  EXPECT_TRUE(boundary.empty());
  std::map<std::string, size_t> pos;
  for (size_t k = 0; k < h.size(); ++k) pos[h[k].sha] = k;
  for (const auto& c : h) {
    for (const auto& p : c.parents) EXPECT_LT(pos.at(c.sha), pos.at(p)) << c.title << " before its parent";
  }
  EXPECT_EQ(h.front().sha, m3);
  EXPECT_EQ(h.back().sha, m0);
}

TEST_F(GitRepoTest, ChangedFilesSeesAddsEditsDeletesAndRenames) {
  const std::string body = lines(0, 40);
  repo.commit("main", "base",
              {{"kernel/x86/old.c", body},
               {"kernel/x86/gone.c", "bye\n"},
               {"Makefile", "all:\n"},
               {"kernel/arm/edit.S", lines(0, 10)},
               {"kernel/arm/moved.c", lines(0, 30, "moved")}});
  const std::string c =
      repo.commit("main", "change",
                  {{"kernel/x86/old.c", std::nullopt},
                   {"kernel/x86/new.c", body},  // same contents: an exact rename
                   {"kernel/x86/gone.c", std::nullopt},
                   {"kernel/arm/edit.S", lines(0, 9) + "changed\n"},
                   {"kernel/arm/moved.c", std::nullopt},
                   {"kernel/riscv/moved.c", lines(0, 29, "moved") + "tail\n"},  // a rename with an edit
                   {"docs/new.md", "# doc\n"}});
  GitRepo r = GitRepo::open(dir.path());
  const auto files = r.changed_files(r.commit(c));
  ASSERT_EQ(files.size(), 5u);
  const FileChange* renamed = find(files, "kernel/x86/new.c");
  ASSERT_NE(renamed, nullptr);
  EXPECT_EQ(renamed->status, 'R');
  EXPECT_EQ(renamed->old_path, "kernel/x86/old.c");
  EXPECT_EQ(renamed->additions + renamed->deletions, 0u);
  const FileChange* similar = find(files, "kernel/riscv/moved.c");
  ASSERT_NE(similar, nullptr);
  EXPECT_EQ(similar->status, 'R');
  EXPECT_EQ(similar->old_path, "kernel/arm/moved.c");
  EXPECT_EQ(similar->additions, 1u);
  EXPECT_EQ(similar->deletions, 1u);
  const FileChange* gone = find(files, "kernel/x86/gone.c");
  ASSERT_NE(gone, nullptr);
  EXPECT_EQ(gone->status, 'D');
  EXPECT_EQ(gone->deletions, 1u);
  const FileChange* edit = find(files, "kernel/arm/edit.S");
  ASSERT_NE(edit, nullptr);
  EXPECT_EQ(edit->status, 'M');
  EXPECT_EQ(edit->additions, 1u);
  EXPECT_EQ(edit->deletions, 1u);
  const FileChange* doc = find(files, "docs/new.md");
  ASSERT_NE(doc, nullptr);
  EXPECT_EQ(doc->status, 'A');
  EXPECT_EQ(doc->additions, 1u);
  EXPECT_EQ(find(files, "Makefile"), nullptr);
  EXPECT_TRUE(std::is_sorted(files.begin(), files.end(), [](auto& a, auto& b) { return a.path < b.path; }));

  // A rename's diff says so and shows only the edit.
  std::vector<FileChange> moved{*similar};
  const std::string text = r.diff_files(moved, 1 << 20);
  EXPECT_NE(text.find("diff --git a/kernel/arm/moved.c b/kernel/riscv/moved.c\nrename from kernel/arm/moved.c\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("-moved 29\n+tail\n"), std::string::npos) << text;

  // Without line counts the same files, uncounted.
  const auto quick = r.changed_files(r.commit(c), false);
  ASSERT_EQ(quick.size(), files.size());
  for (size_t k = 0; k < quick.size(); ++k) {
    EXPECT_EQ(quick[k].path, files[k].path);
    EXPECT_EQ(quick[k].status, files[k].status);
    EXPECT_EQ(quick[k].additions, 0u);
  }
}

TEST_F(GitRepoTest, TheRootCommitIsDiffedAgainstTheEmptyTree) {
  const std::string c = repo.commit("main", "root", {{"a/b/c.c", "x\ny\n"}, {"d.h", "z\n"}});
  GitRepo r = GitRepo::open(dir.path());
  const auto files = r.changed_files(r.commit(c));
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].path, "a/b/c.c");
  EXPECT_EQ(files[0].status, 'A');
  EXPECT_EQ(files[0].additions, 2u);
  EXPECT_EQ(files[1].path, "d.h");
}

TEST_F(GitRepoTest, DiffTextKeepsAcceptedFilesAndIsCappedAtALine) {
  repo.commit("main", "base", {{"kernel/a.c", lines(0, 200)}, {"Makefile", "all:\n"}});
  const std::string c = repo.commit("main", "edit",
                                    {{"kernel/a.c", lines(0, 200, "new")},
                                     {"Makefile", "all: x\n"},
                                     {"kernel/0.bin", std::string("\0\1\2binary\n", 10)}});
  GitRepo r = GitRepo::open(dir.path());
  const CommitInfo ci = r.commit(c);
  auto kernel = [](const std::string& p) { return p.rfind("kernel/", 0) == 0; };
  bool truncated = true;
  const std::string full = r.diff_text(ci, kernel, 1 << 20, &truncated);
  EXPECT_FALSE(truncated);
  EXPECT_NE(full.find("diff --git a/kernel/a.c b/kernel/a.c"), std::string::npos) << full.substr(0, 200);
  EXPECT_NE(full.find("+new 7\n"), std::string::npos);
  EXPECT_EQ(full.find("Makefile"), std::string::npos);
  EXPECT_EQ(full.find("0.bin"), std::string::npos);  // binary contents are left out
  std::vector<FileChange> files = r.changed_files(ci, false);
  ASSERT_EQ(files.size(), 3u);
  r.diff_files(files, 1 << 20);
  EXPECT_TRUE(files[1].binary);  // kernel/0.bin; sorted after Makefile
  EXPECT_FALSE(files[2].binary);
  EXPECT_EQ(files[2].additions, 200u);

  const std::string capped = r.diff_text(ci, kernel, 1000, &truncated);
  EXPECT_TRUE(truncated);
  EXPECT_LE(capped.size(), 1000u);
  EXPECT_GT(capped.size(), 900u);
  EXPECT_EQ(capped.back(), '\n');
  EXPECT_EQ(full.compare(0, capped.size(), capped), 0);

  // A cap that lands just after a newline keeps that line whole and no more.
  const size_t nl = full.find('\n', 500);
  EXPECT_EQ(r.diff_text(ci, kernel, nl + 1, &truncated), full.substr(0, nl + 1));
  EXPECT_EQ(r.diff_text(ci, kernel, nl, &truncated).size(), full.rfind('\n', nl - 1) + 1);
}

TEST_F(GitRepoTest, WhitespaceOnlyChangesAreFormatting) {
  const std::string code = "int f(int a) {\n  return a + 1;\n}\n";
  repo.commit("main", "base", {{"k/a.c", code}, {"k/b.c", code}, {"k/c.c", code}, {"docs/x.md", "x\n"}});
  const std::string reindent =
      repo.commit("main", "reindent", {{"k/a.c", "int f(int a)\n{\n\treturn a+1;\n\n}\n"}, {"docs/x.md", "y\n"}});
  const std::string real = repo.commit("main", "real", {{"k/b.c", "int f(int a) {\n  return a + 2;\n}\n"}});
  const std::string joined = repo.commit("main", "joins words", {{"k/c.c", "intf(int a) {\n  return a + 1;\n}\n"}});
  const std::string added = repo.commit("main", "add", {{"k/d.c", code}});
  GitRepo r = GitRepo::open(dir.path());
  auto k = [](const std::string& p) { return p.rfind("k/", 0) == 0; };
  EXPECT_TRUE(r.whitespace_only(r.commit(reindent), k));
  EXPECT_FALSE(r.whitespace_only(r.commit(reindent), [](const std::string&) { return true; }));  // the doc changed
  EXPECT_FALSE(r.whitespace_only(r.commit(real), k));
  EXPECT_FALSE(r.whitespace_only(r.commit(joined), k));
  EXPECT_FALSE(r.whitespace_only(r.commit(added), k));
  EXPECT_FALSE(r.whitespace_only(r.commit(reindent), [](const std::string&) { return false; }));  // no such file
}

TEST_F(GitRepoTest, ShallowHistoryEndsAtTheBoundary) {
  repo.commit("main", "a", {{"a.c", "1\n"}});
  const std::string b = repo.commit("main", "b", {{"a.c", "2\n"}});
  const std::string c = repo.commit("main", "c", {{"a.c", "3\n"}});
  repo.make_shallow(b);
  GitRepo r = GitRepo::open(dir.path());
  EXPECT_TRUE(r.is_shallow());
  std::vector<std::string> boundary;
  const auto h = r.history(c, &boundary);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0].sha, c);
  EXPECT_EQ(h[1].sha, b);
  EXPECT_EQ(boundary, std::vector<std::string>{b});
  EXPECT_EQ(r.first_parent_chain(c), (std::vector<std::string>{c, b}));  // a is not there
  EXPECT_THROW(r.changed_files(h[1]), Error);
  EXPECT_EQ(r.changed_files(h[0]).size(), 1u);
}

}  // namespace
}  // namespace eok::idea_pool
