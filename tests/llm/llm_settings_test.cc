// Settings from the environment and their validation.
#include "src/llm/llm_settings.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <optional>

#include "src/common/error.h"

namespace eok::llm {
namespace {

// Sets variables for one test and restores what was there before.
class ScopedEnvironment {
 public:
  void set(const std::string& name, const std::optional<std::string>& value) {
    if (!saved_.count(name)) {
      const char* old = std::getenv(name.c_str());
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    value ? ::setenv(name.c_str(), value->c_str(), 1) : ::unsetenv(name.c_str());
  }
  ~ScopedEnvironment() {
    for (const auto& [name, value] : saved_)
      value ? ::setenv(name.c_str(), value->c_str(), 1) : ::unsetenv(name.c_str());
  }

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

TEST(LlmSettings, EnvironmentOverridesDefaults) {
  ScopedEnvironment env;
  env.set("EOK_LLM_BASE_URL", "http://10.0.0.5:8000/v1/");
  env.set("EOK_LLM_MODEL", "Qwen/Qwen2.5-Coder-32B-Instruct");
  env.set("EOK_LLM_API_KEY", "sk-secret");
  LlmSettings defaults;
  defaults.base_url = "http://127.0.0.1:8000/v1";
  defaults.model = "default-model";
  defaults.max_concurrency = 7;
  const LlmSettings s = settings_from_environment(defaults);
  EXPECT_EQ(s.base_url, "http://10.0.0.5:8000/v1");
  EXPECT_EQ(s.model, "Qwen/Qwen2.5-Coder-32B-Instruct");
  EXPECT_EQ(s.api_key, "sk-secret");
  EXPECT_EQ(s.max_concurrency, 7);
}

TEST(LlmSettings, UnsetOrEmptyVariablesKeepDefaults) {
  ScopedEnvironment env;
  env.set("EOK_LLM_BASE_URL", std::nullopt);
  env.set("EOK_LLM_MODEL", "");
  env.set("EOK_LLM_API_KEY", std::nullopt);
  LlmSettings defaults;
  defaults.base_url = "http://127.0.0.1:11434/v1";
  defaults.model = "llama3";
  const LlmSettings s = settings_from_environment(defaults);
  EXPECT_EQ(s.base_url, "http://127.0.0.1:11434/v1");
  EXPECT_EQ(s.model, "llama3");
  EXPECT_EQ(s.api_key, "");
}

TEST(LlmSettings, ValidationSaysWhatToSet) {
  LlmSettings s;
  try {
    validate_settings(s);
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("EOK_LLM_BASE_URL"), std::string::npos) << e.what();
  }
  s.base_url = "http://127.0.0.1:8000/v1";
  try {
    validate_settings(s);
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("EOK_LLM_MODEL"), std::string::npos) << e.what();
  }
  s.model = "m";
  EXPECT_NO_THROW(validate_settings(s));
  s.max_concurrency = 0;
  EXPECT_THROW(validate_settings(s), ConfigError);
  s.max_concurrency = 1;
  s.base_url = "127.0.0.1:8000";
  EXPECT_THROW(validate_settings(s), ConfigError);
}

}  // namespace
}  // namespace eok::llm
