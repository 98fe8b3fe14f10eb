// Content hashing for caches and kernel identity (xxHash XXH3-128: fast, stable across runs and hosts).
#pragma once

#include <string>
#include <string_view>

namespace eok {

// 32 lowercase hex digits.
std::string content_hash(std::string_view data);

// Incremental form: feed parts separated so that ("ab","c") and ("a","bc") hash differently.
class Hasher {
 public:
  Hasher();
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;
  Hasher& add(std::string_view part);
  std::string hex() const;

 private:
  void* state_;
};

}  // namespace eok
