#include "src/llm/llm.h"

namespace eok::llm {

const char* chat_error_name(ChatError e) {
  switch (e) {
    case ChatError::none:
      return "none";
    case ChatError::http:
      return "http";
    case ChatError::network:
      return "network";
    case ChatError::timeout:
      return "timeout";
    case ChatError::bad_response:
      return "bad_response";
    case ChatError::budget:
      return "budget";
    case ChatError::cache_miss:
      return "cache_miss";
    case ChatError::cancelled:
      return "cancelled";
  }
  return "unknown";
}

}  // namespace eok::llm
