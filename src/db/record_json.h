// The records as JSON, for `--json` output and `eok export`. Fields that hold JSON text (config_json,
// summary_json, progress_json, evidence_json) are embedded as JSON values, not as strings, when they parse;
// empty ones become null. Found by nlohmann::json's ADL: `nlohmann::json j = run;`.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "src/db/kernel_db.h"

namespace eok::db {

void to_json(nlohmann::json& j, const RunRecord& r);
void to_json(nlohmann::json& j, const KernelRecord& k);
void to_json(nlohmann::json& j, const EvaluationRecord& e);
void to_json(nlohmann::json& j, const LlmCallRecord& c);
void to_json(nlohmann::json& j, const IdeaUpdateRecord& u);
void to_json(nlohmann::json& j, const KernelRow& row);
void to_json(nlohmann::json& j, const LeaderboardRow& row);
void to_json(nlohmann::json& j, const RunTotals& t);

}  // namespace eok::db
