#include "src/llm/http_transport.h"

#include "src/common/interrupt_guard.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>

namespace eok::llm {

namespace {

// curl_global_init is not thread-safe in every libcurl; a function-local static runs it exactly once.
bool curl_initialised() {
  static const bool ok = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  return ok;
}

struct Transfer {
  std::string body;
  std::map<std::string, std::string> headers;
  size_t max_bytes = 0;
  bool too_large = false;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t n = size * count;
  if (transfer->body.size() + n > transfer->max_bytes) {
    transfer->too_large = true;
    return 0;  // anything other than n aborts the transfer
  }
  transfer->body.append(data, n);
  return n;
}

std::string trimmed(std::string s) {
  auto not_space = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t n = size * count;
  const std::string line(data, n);
  const auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    transfer->headers[trimmed(name)] = trimmed(line.substr(colon + 1));
  } else if (line.rfind("HTTP/", 0) == 0) {
    transfer->headers.clear();  // a new response begins (after "100 Continue"): keep only its headers
  }
  return n;
}

HttpFailure classify(CURLcode code, bool too_large) {
  if (too_large) return HttpFailure::too_large;
  switch (code) {
    case CURLE_OK:
      return HttpFailure::none;
    case CURLE_OPERATION_TIMEDOUT:
      return HttpFailure::timeout;
    case CURLE_FILESIZE_EXCEEDED:
      return HttpFailure::too_large;
    case CURLE_ABORTED_BY_CALLBACK:
      return HttpFailure::cancelled;
    default:
      return HttpFailure::network;
  }
}

// libcurl calls this about once a second, and more often while data moves: a Ctrl-C abandons the transfer.
int on_progress(void*, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return interrupt_requested() ? 1 : 0;
}

struct CurlHandleDeleter {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
struct CurlListDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

}  // namespace

HttpReply perform_http(const HttpRequest& request) {
  HttpReply reply;
  std::unique_ptr<CURL, CurlHandleDeleter> curl(curl_initialised() ? curl_easy_init() : nullptr);
  if (!curl) {
    reply.failure = HttpFailure::network;
    reply.error = "libcurl failed to initialise (out of memory, or a broken TLS library?)";
    return reply;
  }
  Transfer transfer;
  transfer.max_bytes = static_cast<size_t>(request.max_response_bytes);

  curl_slist* raw_list = nullptr;
  for (const auto& h : request.headers) raw_list = curl_slist_append(raw_list, h.c_str());
  if (request.method == "POST") raw_list = curl_slist_append(raw_list, "Content-Type: application/json");
  raw_list = curl_slist_append(raw_list, "Expect:");  // no "100 Continue" round trip for large prompts
  std::unique_ptr<curl_slist, CurlListDeleter> header_list(raw_list);

  char error_buffer[CURL_ERROR_SIZE] = {0};
  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, header_list.get());
  if (request.method == "POST") {
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  } else {
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
  }
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max(1.0, request.timeout_seconds * 1000)));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: we run on many threads
  curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(request.max_response_bytes));
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // any encoding libcurl can decode
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);

  const CURLcode code = curl_easy_perform(h);
  reply.failure = classify(code, transfer.too_large);
  if (reply.failure == HttpFailure::none) {
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &reply.status);
    reply.body = std::move(transfer.body);
    reply.headers = std::move(transfer.headers);
    return reply;
  }
  if (reply.failure == HttpFailure::cancelled) {
    reply.error = "cancelled: eok was interrupted (Ctrl-C)";
  } else if (reply.failure == HttpFailure::too_large) {
    reply.error =
        "the reply is larger than " + std::to_string(request.max_response_bytes) + " bytes; the transfer was aborted";
  } else {
    reply.error = error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(code);
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &reply.status);
  reply.headers = std::move(transfer.headers);
  return reply;
}

}  // namespace eok::llm
