// One HTTP exchange over libcurl, with a hard timeout and a cap on the reply size. No retries here
// (retrying_http_client.h adds them).
//
// Contract: perform_http() never throws for anything the network or the server does; the outcome says
// what happened. Thread-safe: every call uses its own curl handle; libcurl is initialised once per process.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace eok::llm {

struct HttpRequest {
  std::string method = "POST";  // "POST" or "GET"
  std::string url;
  std::string body;                  // sent as application/json for POST
  std::vector<std::string> headers;  // extra "Name: value" lines
  double timeout_seconds = 30;
  int64_t max_response_bytes = int64_t{4} << 20;
};

enum class HttpFailure {
  none,       // the server answered (any status)
  timeout,    // no complete reply within the timeout
  network,    // refused, reset, closed without a reply, DNS, TLS
  too_large,  // the reply passed max_response_bytes; the transfer was aborted
  cancelled,  // eok was interrupted (Ctrl-C): the transfer was abandoned
};

struct HttpReply {
  HttpFailure failure = HttpFailure::none;
  long status = 0;  // HTTP status when failure == none
  std::string body;
  std::map<std::string, std::string> headers;  // names lowercased; the last value of a repeated header wins
  std::string error;                           // what went wrong when failure != none (libcurl's words)
};

HttpReply perform_http(const HttpRequest& request);

}  // namespace eok::llm
