#include "src/search/search_context.h"

namespace eok::search {

void SearchContext::infra_error(const std::string& where, const ScoredKernel& k) {
  progress.infra_error(where, "kernel #" + std::to_string(k.kernel.id) + " infra_error: " + k.eval.message +
                                  "; not held against the kernel");
  if (!evals.infra_failing()) return;
  request_stop(std::to_string(EvaluationService::kInfraErrorsInARow) +
               " evaluations in a row failed in eok or the board, not in the kernels (last: infra_error: " +
               evals.last_infra_error() + "); check the setup with `eok doctor`, then continue the run with --resume");
}

}  // namespace eok::search
