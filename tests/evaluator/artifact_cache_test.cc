// The artifact cache gives back only what it stored, unaltered, and keeps large artifacts bounded.
#include <gtest/gtest.h>

#include <chrono>

#include "evaluator/artifact_cache.h"
#include "src/common/fs_util.h"

namespace eok::evaluator {
namespace {

namespace fs = std::filesystem;

TEST(ArtifactCache, GivesBackWhatItStoredAndNothingDamaged) {
  TempDir dir(fs::temp_directory_path(), "eok-artifacts-");
  const ArtifactCache cache(dir.path());
  EXPECT_FALSE(cache.find("abcdef", ".exe"));
  const fs::path stored = cache.store_bytes("abcdef", ".exe", "the program");
  ASSERT_TRUE(cache.find("abcdef", ".exe"));
  EXPECT_EQ(read_file(*cache.find("abcdef", ".exe")), "the program");
  EXPECT_FALSE(cache.find("abcdef", ".o")) << "another suffix is another artifact";

  write_file_atomic(stored, "the program, edited on disk");
  EXPECT_FALSE(cache.find("abcdef", ".exe"));
  EXPECT_FALSE(fs::exists(stored)) << "a damaged artifact is removed so that it is built again";
}

TEST(ArtifactCache, KeepsThePermissionsOfAStoredFile) {
  TempDir dir(fs::temp_directory_path(), "eok-artifacts-");
  const fs::path built = dir.path() / "a.out";
  write_file_atomic(built, "#!/bin/sh\n");
  fs::permissions(built, fs::perms::owner_all);
  const ArtifactCache cache(dir.path() / "cache");
  const fs::path stored = cache.store("0123", ".exe", built);
  EXPECT_EQ(fs::status(stored).permissions() & fs::perms::owner_exec, fs::perms::owner_exec);
}

TEST(ArtifactCache, CopiesOutOnlyWhatMatchesItsChecksumWithItsPermissions) {
  TempDir dir(fs::temp_directory_path(), "eok-artifacts-");
  const fs::path built = dir.path() / "a.out";
  write_file_atomic(built, "#!/bin/sh\n");
  fs::permissions(built, fs::perms::owner_all);
  const ArtifactCache cache(dir.path() / "cache");
  EXPECT_FALSE(cache.copy_to("0123", ".exe", dir.path() / "none"));
  EXPECT_FALSE(fs::exists(dir.path() / "none"));
  const fs::path stored = cache.store("0123", ".exe", built);
  const fs::path out = dir.path() / "copy";
  ASSERT_TRUE(cache.copy_to("0123", ".exe", out));
  EXPECT_EQ(read_file(out), "#!/bin/sh\n");
  EXPECT_EQ(fs::status(out).permissions() & fs::perms::owner_exec, fs::perms::owner_exec);

  write_file_atomic(stored, "#!/bin/sh\nrm -rf ~\n");
  EXPECT_FALSE(cache.copy_to("0123", ".exe", dir.path() / "damaged"));
  EXPECT_FALSE(fs::exists(dir.path() / "damaged"));
  EXPECT_FALSE(fs::exists(stored)) << "a damaged artifact is removed so that it is built again";
}

TEST(ArtifactCache, TrimKeepsTheMostRecentlyUsed) {
  TempDir dir(fs::temp_directory_path(), "eok-artifacts-");
  const ArtifactCache cache(dir.path());
  const auto past = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (int i = 0; i < 5; ++i) {
    const std::string key = "k" + std::to_string(i) + "0000";
    fs::last_write_time(cache.store_bytes(key, ".exe", "program " + std::to_string(i)), past + std::chrono::minutes(i));
  }
  ASSERT_TRUE(cache.find("k00000", ".exe"));  // the oldest, used now
  cache.store_bytes("k50000", ".o", "an object: another suffix, never trimmed with programs");
  cache.trim(".exe", 2);
  EXPECT_TRUE(cache.find("k00000", ".exe"));
  EXPECT_TRUE(cache.find("k40000", ".exe"));
  for (const char* gone : {"k10000", "k20000", "k30000"}) EXPECT_FALSE(fs::exists(cache.path(gone, ".exe"))) << gone;
  EXPECT_FALSE(fs::exists(cache.path("k10000", ".exe.sum")));
  EXPECT_TRUE(cache.find("k50000", ".o"));
}

}  // namespace
}  // namespace eok::evaluator
