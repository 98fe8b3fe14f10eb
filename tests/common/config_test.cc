#include "src/common/config.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok {
namespace {

namespace fs = std::filesystem;

class ConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-config-");
    fs::create_directories(dir_->path() / "configs");
  }
  void TearDown() override {
    for (const char* v : {"EOK_SEARCH_PARALLEL", "EOK_LLM_API_KEY", "EOK_LLM_BASE_URL"}) unsetenv(v);
  }
  fs::path root() const { return dir_->path(); }
  std::unique_ptr<TempDir> dir_;
};

TEST_F(ConfigTest, LayersApplyInOrder) {
  write_file_atomic(root() / "configs" / "eok.toml", "[search]\niterations = 5\nparallel = 3\npopulation = 6\n");
  write_file_atomic(root() / "mine.toml", "[search]\nparallel = 4\npopulation = 7\n");
  setenv("EOK_SEARCH_PARALLEL", "9", 1);
  Config c = Config::load(root(), root() / "mine.toml");
  c.set("search.population", "8");
  EXPECT_EQ(c.integer("search.generations"), 2);  // built-in
  EXPECT_EQ(c.integer("search.iterations"), 5);   // configs/eok.toml
  EXPECT_EQ(c.integer("search.parallel"), 9);     // environment over --config
  EXPECT_EQ(c.integer("search.population"), 8);   // flag over everything
  EXPECT_EQ(c.origin("search.iterations"), "configs/eok.toml");
  EXPECT_EQ(c.origin("search.parallel"), "env EOK_SEARCH_PARALLEL");
  EXPECT_TRUE(c.is_default("search.generations"));
}

TEST_F(ConfigTest, UnknownKeysAndWrongTypesAreRefusedWithAHint) {
  write_file_atomic(root() / "bad.toml", "[search]\niteratons = 5\n");
  try {
    Config::load(root(), root() / "bad.toml");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean search.iterations?"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bad.toml"), std::string::npos) << e.what();
  }
  Config c = Config::load(root());
  EXPECT_THROW(c.set("search.parallel", "two"), ConfigError);
  EXPECT_THROW(c.set("llm.discover", "maybe"), ConfigError);
  EXPECT_THROW(c.str("no.such_key"), ConfigError);
}

TEST_F(ConfigTest, SecretsComeOnlyFromTheEnvironmentAndAreNeverStored) {
  write_file_atomic(root() / "key.toml", "[llm]\napi_key = \"sk-in-a-file\"\n");
  EXPECT_THROW(Config::load(root(), root() / "key.toml"), ConfigError);
  setenv("EOK_LLM_API_KEY", "sk-secret", 1);
  Config c = Config::load(root());
  EXPECT_EQ(c.str("llm.api_key"), "sk-secret");
  EXPECT_EQ(c.to_json().dump().find("sk-secret"), std::string::npos);
  EXPECT_FALSE(c.to_json().contains("llm.api_key"));
}

TEST_F(ConfigTest, StoredConfigurationRoundTrips) {
  setenv("EOK_LLM_BASE_URL", "http://127.0.0.1:9/v1", 1);
  Config c = Config::load(root());
  c.set("search.seed", "1234");
  Config back = Config::from_json(c.to_json());
  EXPECT_EQ(back.integer("search.seed"), 1234);
  EXPECT_EQ(back.str("llm.base_url"), "http://127.0.0.1:9/v1");
  EXPECT_DOUBLE_EQ(back.number("llm.temperature"), c.number("llm.temperature"));
  EXPECT_EQ(env_name("llm.base_url"), "EOK_LLM_BASE_URL");
}

TEST_F(ConfigTest, EveryDeclaredKeyHasAValidDefaultAndHelp) {
  Config c = Config::load(root());
  for (const auto& k : config_keys()) {
    EXPECT_FALSE(k.help.empty()) << k.name;
    EXPECT_NO_THROW(c.set(k.name, k.default_value, "default")) << k.name;
  }
}

}  // namespace
}  // namespace eok
