#include "tests/support/fake_openai_server.h"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace eok::testing {

using nlohmann::json;

// ---- FakeReply ------------------------------------------------------------------------------------------

FakeReply FakeReply::completion(std::string content, int64_t prompt_tokens, int64_t completion_tokens) {
  FakeReply r;
  r.content = std::move(content);
  r.prompt_tokens = prompt_tokens;
  r.completion_tokens = completion_tokens;
  return r;
}

FakeReply FakeReply::completion_without_usage(std::string content) {
  FakeReply r = completion(std::move(content));
  r.with_usage = false;
  return r;
}

FakeReply FakeReply::http_status(int status, std::string body,
                                 std::vector<std::pair<std::string, std::string>> headers) {
  FakeReply r;
  r.kind = Kind::http_status;
  r.status = status;
  r.body = std::move(body);
  r.headers = std::move(headers);
  return r;
}

FakeReply FakeReply::stall(double seconds) {
  FakeReply r;
  r.kind = Kind::stall;
  r.seconds = seconds;
  return r;
}

FakeReply FakeReply::truncated_json() {
  FakeReply r;
  r.kind = Kind::truncated_json;
  return r;
}

FakeReply FakeReply::huge(size_t bytes) {
  FakeReply r;
  r.kind = Kind::huge;
  r.bytes = bytes;
  return r;
}

FakeReply FakeReply::invalid_utf8() {
  FakeReply r;
  r.kind = Kind::invalid_utf8;
  return r;
}

FakeReply FakeReply::close_connection() {
  FakeReply r;
  r.kind = Kind::close_connection;
  return r;
}

FakeReply FakeReply::after(double s) && {
  seconds = s;
  return std::move(*this);
}

// ---- RecordedRequest ------------------------------------------------------------------------------------

std::string RecordedRequest::header(const std::string& lowercase_name) const {
  auto it = headers.find(lowercase_name);
  return it == headers.end() ? "" : it->second;
}

json RecordedRequest::json() const {
  return nlohmann::json::parse(body);
}

// ---- the server -----------------------------------------------------------------------------------------

namespace {

using Clock = std::chrono::steady_clock;

std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

json completion_json(const FakeReply& reply, const std::string& model, const std::string& content) {
  json body = {
      {"id", "chatcmpl-fake"},
      {"object", "chat.completion"},
      {"created", 0},
      {"model", model},
      {"choices", json::array({{{"index", 0},
                                {"message", {{"role", "assistant"}, {"content", content}}},
                                {"finish_reason", reply.finish_reason}}})},
  };
  if (reply.with_usage) {
    body["usage"] = {{"prompt_tokens", reply.prompt_tokens},
                     {"completion_tokens", reply.completion_tokens},
                     {"total_tokens", reply.prompt_tokens + reply.completion_tokens}};
  }
  return body;
}

// cpp-httplib gives a handler no way to drop its connection. The handler knows both ports of its TCP
// connection, so find that socket among the process's descriptors and shut it down: the client then reads
// end-of-file before any byte of a reply, as from a crashed server. (httplib's later write fails quietly.)
void shut_down_connection(int local_port, int remote_port) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    int fd = -1;
    try {
      fd = std::stoi(entry.path().filename().string());
    } catch (const std::exception&) {
      continue;
    }
    sockaddr_storage local{}, peer{};
    socklen_t local_len = sizeof local, peer_len = sizeof peer;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_len) != 0) continue;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_len) != 0) continue;
    if (local.ss_family != AF_INET || peer.ss_family != AF_INET) continue;
    const auto& l = reinterpret_cast<const sockaddr_in&>(local);
    const auto& p = reinterpret_cast<const sockaddr_in&>(peer);
    if (ntohs(l.sin_port) == local_port && ntohs(p.sin_port) == remote_port) {
      ::shutdown(fd, SHUT_RDWR);
      return;
    }
  }
}

uint64_t fnv1a(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

struct FakeOpenAiServer::State {
  httplib::Server server;
  std::thread listener;
  int port = 0;
  Clock::time_point started = Clock::now();

  mutable std::mutex mutex;
  std::condition_variable wake;  // stalled handlers wait on it until their time is up or stop()
  bool stopping = false;
  std::deque<FakeReply> chat_queue, embedding_queue;
  Responder responder;
  FakeReply default_reply = FakeReply::completion("ok");
  size_t embedding_dim = 8;
  std::string model_id = "fake-model", model_owner = "eok-fake";
  std::vector<RecordedRequest> recorded;
  int in_flight = 0, max_in_flight = 0;

  RecordedRequest record(const httplib::Request& req) {
    RecordedRequest r;
    r.method = req.method;
    r.path = req.path;
    r.body = req.body;
    for (const auto& [name, value] : req.headers) r.headers[lowercase(name)] = value;
    r.received_at = std::chrono::duration<double>(Clock::now() - started).count();
    std::lock_guard lock(mutex);
    recorded.push_back(r);
    return r;
  }

  // Returns false when the server is stopping.
  bool sleep_unless_stopping(double seconds) {
    std::unique_lock lock(mutex);
    return !wake.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return stopping; });
  }

  std::string model_for(const RecordedRequest& request) const {
    const auto body = json::parse(request.body, nullptr, false);
    if (body.is_object() && body.contains("model") && body["model"].is_string())
      return body["model"].get<std::string>();
    std::lock_guard lock(mutex);
    return model_id;
  }

  FakeReply next_chat_reply(const RecordedRequest& request) {
    Responder answer;
    {
      std::lock_guard lock(mutex);
      if (!chat_queue.empty()) {
        FakeReply reply = std::move(chat_queue.front());
        chat_queue.pop_front();
        return reply;
      }
      if (!responder) return default_reply;
      answer = responder;
    }
    return answer(request);  // outside the lock: a responder may wait for other requests
  }

  std::optional<FakeReply> next_embedding_reply() {
    std::lock_guard lock(mutex);
    if (embedding_queue.empty()) return std::nullopt;
    FakeReply reply = std::move(embedding_queue.front());
    embedding_queue.pop_front();
    return reply;
  }

  std::string embeddings_json(const RecordedRequest& request) {
    const auto body = json::parse(request.body, nullptr, false);
    std::vector<std::string> inputs;
    if (body.is_object() && body.contains("input")) {
      if (body["input"].is_string()) inputs.push_back(body["input"].get<std::string>());
      if (body["input"].is_array()) {
        for (const auto& x : body["input"]) inputs.push_back(x.is_string() ? x.get<std::string>() : x.dump());
      }
    }
    size_t dim;
    {
      std::lock_guard lock(mutex);
      dim = embedding_dim;
    }
    json data = json::array();
    // Listed last input first, with their indices, as a server may: the client must reorder.
    for (size_t i = inputs.size(); i-- > 0;) {
      data.push_back({{"object", "embedding"}, {"index", i}, {"embedding", embedding_of(inputs[i], dim)}});
    }
    return json{{"object", "list"},
                {"data", data},
                {"model", model_for(request)},
                {"usage", {{"prompt_tokens", inputs.size()}, {"total_tokens", inputs.size()}}}}
        .dump();
  }

  // Writes `reply` into `res`; `normal_body` is what a well-behaved 200 carries on this endpoint.
  void answer(const FakeReply& reply, const httplib::Request& req, httplib::Response& res,
              const std::function<std::string()>& normal_body, const RecordedRequest& request) {
    switch (reply.kind) {
      case FakeReply::Kind::completion:
        if (reply.seconds > 0 && !sleep_unless_stopping(reply.seconds)) return;
        res.set_content(normal_body(), "application/json");
        return;
      case FakeReply::Kind::http_status:
        res.status = reply.status;
        for (const auto& [name, value] : reply.headers) res.set_header(name, value);
        res.set_content(reply.body, "application/json");
        return;
      case FakeReply::Kind::stall:
        sleep_unless_stopping(reply.seconds);
        res.set_content(normal_body(), "application/json");
        return;
      case FakeReply::Kind::truncated_json: {
        const std::string full = completion_json(reply, model_for(request), reply.content).dump();
        res.set_content(full.substr(0, full.size() / 2), "application/json");
        return;
      }
      case FakeReply::Kind::huge:
        res.set_content(completion_json(reply, model_for(request), std::string(reply.bytes, 'x')).dump(),
                        "application/json");
        return;
      case FakeReply::Kind::invalid_utf8: {
        // json::dump refuses invalid UTF-8, so put the raw bytes in after serialising.
        std::string body = completion_json(reply, model_for(request), "bad @@BYTES@@ here").dump();
        body.replace(body.find("@@BYTES@@"), 9, "\xFF\xFE");
        res.set_content(body, "application/json");
        return;
      }
      case FakeReply::Kind::close_connection:
        shut_down_connection(req.local_port, req.remote_port);
        return;
    }
  }
};

FakeOpenAiServer::FakeOpenAiServer() : state_(std::make_unique<State>()) {
  std::signal(SIGPIPE, SIG_IGN);  // a reply written to a connection the client dropped must not kill the test
  State& s = *state_;
  s.server.new_task_queue = [] { return new httplib::ThreadPool(32); };  // stalls must not starve the others

  s.server.Post("/v1/chat/completions", [&s](const httplib::Request& req, httplib::Response& res) {
    const RecordedRequest request = s.record(req);
    {
      std::lock_guard lock(s.mutex);
      s.max_in_flight = std::max(s.max_in_flight, ++s.in_flight);
    }
    const FakeReply reply = s.next_chat_reply(request);
    s.answer(
        reply, req, res, [&] { return completion_json(reply, s.model_for(request), reply.content).dump(); }, request);
    std::lock_guard lock(s.mutex);
    --s.in_flight;
  });

  s.server.Post("/v1/embeddings", [&s](const httplib::Request& req, httplib::Response& res) {
    const RecordedRequest request = s.record(req);
    const FakeReply reply = s.next_embedding_reply().value_or(FakeReply{});
    s.answer(reply, req, res, [&] { return s.embeddings_json(request); }, request);
  });

  s.server.Get("/v1/models", [&s](const httplib::Request& req, httplib::Response& res) {
    s.record(req);
    std::lock_guard lock(s.mutex);
    const json body = {
        {"object", "list"},
        {"data",
         json::array({{{"id", s.model_id}, {"object", "model"}, {"created", 0}, {"owned_by", s.model_owner}}})}};
    res.set_content(body.dump(), "application/json");
  });

  s.port = s.server.bind_to_any_port("127.0.0.1");
  if (s.port <= 0) throw std::runtime_error("the fake OpenAI server cannot bind a port on 127.0.0.1");
  s.listener = std::thread([&s] { s.server.listen_after_bind(); });
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (!s.server.is_running()) {
    if (Clock::now() > deadline) {
      stop();
      throw std::runtime_error("the fake OpenAI server did not start listening on port " + std::to_string(s.port));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

FakeOpenAiServer::~FakeOpenAiServer() {
  stop();
}

void FakeOpenAiServer::stop() {
  State& s = *state_;
  {
    std::lock_guard lock(s.mutex);
    s.stopping = true;
  }
  s.wake.notify_all();
  s.server.stop();
  if (s.listener.joinable()) s.listener.join();
}

int FakeOpenAiServer::port() const {
  return state_->port;
}

std::string FakeOpenAiServer::base_url() const {
  return "http://127.0.0.1:" + std::to_string(state_->port) + "/v1";
}

void FakeOpenAiServer::enqueue(FakeReply reply) {
  std::lock_guard lock(state_->mutex);
  state_->chat_queue.push_back(std::move(reply));
}

void FakeOpenAiServer::set_responder(Responder responder) {
  std::lock_guard lock(state_->mutex);
  state_->responder = std::move(responder);
}

void FakeOpenAiServer::set_default_reply(FakeReply reply) {
  std::lock_guard lock(state_->mutex);
  state_->default_reply = std::move(reply);
}

void FakeOpenAiServer::enqueue_embeddings(FakeReply reply) {
  std::lock_guard lock(state_->mutex);
  state_->embedding_queue.push_back(std::move(reply));
}

void FakeOpenAiServer::set_embedding_dim(size_t dim) {
  std::lock_guard lock(state_->mutex);
  state_->embedding_dim = dim;
}

void FakeOpenAiServer::set_model(std::string id, std::string owned_by) {
  std::lock_guard lock(state_->mutex);
  state_->model_id = std::move(id);
  state_->model_owner = std::move(owned_by);
}

std::vector<RecordedRequest> FakeOpenAiServer::requests() const {
  std::lock_guard lock(state_->mutex);
  return state_->recorded;
}

std::vector<RecordedRequest> FakeOpenAiServer::chat_requests() const {
  std::vector<RecordedRequest> out;
  for (auto& r : requests()) {
    if (r.path == "/v1/chat/completions") out.push_back(std::move(r));
  }
  return out;
}

std::vector<RecordedRequest> FakeOpenAiServer::embedding_requests() const {
  std::vector<RecordedRequest> out;
  for (auto& r : requests()) {
    if (r.path == "/v1/embeddings") out.push_back(std::move(r));
  }
  return out;
}

int FakeOpenAiServer::in_flight() const {
  std::lock_guard lock(state_->mutex);
  return state_->in_flight;
}

int FakeOpenAiServer::max_in_flight() const {
  std::lock_guard lock(state_->mutex);
  return state_->max_in_flight;
}

std::vector<float> FakeOpenAiServer::embedding_of(const std::string& text, size_t dim) {
  uint64_t state = fnv1a(text);
  std::vector<float> v(dim);
  double norm = 0;
  for (auto& x : v) {
    x = static_cast<float>(static_cast<double>(splitmix64(state) >> 11) / 9007199254740992.0 * 2.0 - 1.0);
    norm += static_cast<double>(x) * x;
  }
  const double scale = norm > 0 ? 1.0 / std::sqrt(norm) : 1.0;
  for (auto& x : v) x = static_cast<float>(x * scale);
  return v;
}

}  // namespace eok::testing
