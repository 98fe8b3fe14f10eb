// Test support: a scriptable fake OpenAI-compatible server on 127.0.0.1 (an ephemeral port), served by
// cpp-httplib on its own threads.
//
//   POST /v1/chat/completions  answers from the queue of scripted replies, then from the responder (when
//                              set), then with the default reply
//   POST /v1/embeddings        deterministic unit vectors (a hash of each input), or a scripted reply
//   GET  /v1/models            one model (id and owned_by settable)
//
// Every request is recorded (method, path, body, headers, arrival time) for assertions. Scripted replies
// can misbehave in every way the client must survive: error statuses with headers (Retry-After), stalls
// longer than the client's timeout, truncated JSON, huge bodies, invalid UTF-8, connections closed without
// a reply. The destructor stops the server; stalled handlers wake up at stop().
//
// Thread-safe: tests script it from the test thread while the client calls it from many.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace eok::testing {

struct FakeReply {
  enum class Kind {
    completion,        // 200 with a chat completion (or, for /v1/embeddings, the normal vectors)
    http_status,       // `status` with `body` and `headers`
    stall,             // answer nothing for `seconds` (then a completion nobody reads)
    truncated_json,    // 200 with the first half of a completion's JSON
    huge,              // 200 with a valid completion of `bytes` bytes of content
    invalid_utf8,      // 200 with a completion whose content holds raw bytes 0xFF 0xFE
    close_connection,  // the connection is shut down before any byte of a reply
  };
  Kind kind = Kind::completion;
  std::string content = "ok";
  bool with_usage = true;
  int64_t prompt_tokens = 10, completion_tokens = 5;
  std::string finish_reason = "stop";
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  double seconds = 0;  // completion: thinking time before the answer; stall: how long to hang
  size_t bytes = 0;    // huge: size of the content

  static FakeReply completion(std::string content, int64_t prompt_tokens = 10, int64_t completion_tokens = 5);
  static FakeReply completion_without_usage(std::string content);
  static FakeReply http_status(int status, std::string body,
                               std::vector<std::pair<std::string, std::string>> headers = {});
  static FakeReply stall(double seconds);
  static FakeReply truncated_json();
  static FakeReply huge(size_t bytes);
  static FakeReply invalid_utf8();
  static FakeReply close_connection();
  // The same reply, answered only after `s` seconds (to keep requests in flight).
  FakeReply after(double s) &&;
};

struct RecordedRequest {
  std::string method, path, body;
  std::map<std::string, std::string> headers;  // names lowercased
  double received_at = 0;                      // seconds since the server started (steady clock)

  std::string header(const std::string& lowercase_name) const;  // "" when absent
  nlohmann::json json() const;                                  // the body parsed; throws when it is not JSON
};

class FakeOpenAiServer {
 public:
  using Responder = std::function<FakeReply(const RecordedRequest&)>;

  FakeOpenAiServer();  // listening when the constructor returns
  ~FakeOpenAiServer();
  FakeOpenAiServer(const FakeOpenAiServer&) = delete;
  FakeOpenAiServer& operator=(const FakeOpenAiServer&) = delete;

  int port() const;
  std::string base_url() const;  // "http://127.0.0.1:PORT/v1"

  // Chat completions: scripted replies first (in order), then the responder, then the default reply.
  void enqueue(FakeReply reply);
  void set_responder(Responder responder);
  void set_default_reply(FakeReply reply);
  // Embeddings: scripted replies first; Kind::completion means the normal vectors.
  void enqueue_embeddings(FakeReply reply);
  void set_embedding_dim(size_t dim);
  // What GET /v1/models lists.
  void set_model(std::string id, std::string owned_by = "eok-fake");

  std::vector<RecordedRequest> requests() const;  // all paths, in arrival order
  std::vector<RecordedRequest> chat_requests() const;
  std::vector<RecordedRequest> embedding_requests() const;
  int in_flight() const;      // chat requests being answered now
  int max_in_flight() const;  // the most ever answered at once

  // The normal vector the server returns for `text`.
  static std::vector<float> embedding_of(const std::string& text, size_t dim);

  void stop();  // idempotent; wakes stalled handlers

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace eok::testing
