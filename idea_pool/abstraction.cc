#include "idea_pool/abstraction.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>

#include "idea_pool/clustering.h"
#include "src/common/error.h"

namespace eok::idea_pool {

namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

// A group of commits on its way to becoming a thought. Groups are never erased during the rounds (a
// commit's pairing refers to a group by its index); an emptied group is marked dead.
struct Group {
  std::string description;
  Embedding embedding;
  std::vector<size_t> members;    // commit indices, ascending
  std::vector<size_t> distilled;  // the members the description was distilled from
  bool alive = true;
  bool from_principle = false;
};

// Runs f(i) for i in [0, n) on up to `threads` threads; the first exception is rethrown.
template <class F>
void parallel_for(size_t n, size_t threads, F f) {
  threads = std::max<size_t>(1, std::min(threads, n));
  if (threads == 1) {
    for (size_t i = 0; i < n; ++i) f(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (size_t i = next++; i < n; i = next++) {
        try {
          f(i);
        } catch (...) {
          std::lock_guard lock(error_mutex);
          if (!error) error = std::current_exception();
          next = n;
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
}

class Miner {
 public:
  Miner(const std::vector<MinedCommit>& commits, llm::Embedder& embedder, Distiller& distiller,
        const AbstractionOptions& options)
      : commits_(commits), embedder_(embedder), distiller_(distiller), options_(options) {}

  Abstraction run() {
    result_.stats.commits = commits_.size();
    if (options_.variant == PoolVariant::raw) {
      raw();
    } else {
      embed_commits();
      if (options_.variant == PoolVariant::kmeans) {
        kmeans_groups();
      } else {
        two_level_groups();
      }
      count_delta();
      build_ideas();
    }
    finish();
    return std::move(result_);
  }

 private:
  // Distillations run on several threads; the callback sees one report at a time.
  void report(const std::string& stage, size_t done, size_t total) {
    if (!options_.progress) return;
    std::lock_guard lock(report_mutex_);
    options_.progress({stage, done, total});
  }

  std::vector<Embedding> embed(const std::vector<std::string>& texts) {
    if (texts.empty()) return {};
    std::vector<Embedding> v = embedder_.embed(texts);
    if (v.size() != texts.size()) {
      throw Error("embedder " + embedder_.describe() + " returned " + std::to_string(v.size()) + " vectors for " +
                  std::to_string(texts.size()) + " texts");
    }
    l2_normalise(v);
    return v;
  }

  void embed_commits() {
    std::vector<std::string> texts;
    for (const auto& c : commits_) texts.push_back(c.text());
    report("embed", 0, texts.size());
    commit_vectors_ = embed(texts);
    report("embed", texts.size(), texts.size());
  }

  std::vector<const MinedCommit*> members_of(const Group& g) const {
    std::vector<const MinedCommit*> out;
    for (size_t i : g.members) out.push_back(&commits_[i]);
    return out;
  }

  // Distils every live group whose members changed since its description was made, and re-embeds them.
  // Descriptions are remembered by member set: a group that comes back as it was costs no second call.
  void distil_changed(const std::string& stage) {
    std::vector<size_t> todo, fresh;
    for (size_t g = 0; g < groups_.size(); ++g) {
      Group& group = groups_[g];
      if (!group.alive || group.members.empty() || group.members == group.distilled) continue;
      todo.push_back(g);
      if (auto it = memo_.find(group.members); it != memo_.end()) {
        group.description = it->second.first;
        group.embedding = it->second.second;
        group.distilled = group.members;
      } else {
        fresh.push_back(g);
      }
    }
    std::atomic<size_t> done{0};
    report(stage, 0, fresh.size());
    parallel_for(fresh.size(), options_.parallel, [&](size_t i) {
      Group& g = groups_[fresh[i]];
      g.description = distiller_.thought(members_of(g));
      g.distilled = g.members;
      report(stage, ++done, fresh.size());
    });
    result_.stats.distillations += fresh.size();
    std::vector<std::string> texts;
    for (size_t g : fresh) texts.push_back(groups_[g].description);
    std::vector<Embedding> v = embed(texts);
    for (size_t i = 0; i < fresh.size(); ++i) {
      Group& g = groups_[fresh[i]];
      g.embedding = std::move(v[i]);
      // A description the embedder knows no word of would attract nothing: its members' direction stands in.
      if (std::all_of(g.embedding.begin(), g.embedding.end(), [](float x) { return x == 0.0f; })) {
        g.embedding = mean_direction(commit_vectors_, g.members);
      }
      memo_[g.members] = {g.description, g.embedding};
    }
  }

  // K-means of the commits `points` into groups of about group_size. A cluster whose commits are exactly
  // the members a group had after the last round is that group again (its description still stands);
  // other clusters become new groups. Writes each point's group into `assign`.
  void group_rest(const std::vector<size_t>& points, std::vector<size_t>& assign) {
    if (points.empty()) return;
    std::vector<Embedding> x;
    for (size_t i : points) x.push_back(commit_vectors_[i]);
    const size_t k = (points.size() + options_.group_size - 1) / options_.group_size;
    // The same seed every round: the same rest gives the same clusters, so the pairing can settle.
    const KMeansResult km = kmeans(x, {.k = k, .spherical = true, .seed = options_.seed});
    std::vector<std::vector<size_t>> clusters(km.centroids.size());
    for (size_t p = 0; p < points.size(); ++p) clusters[km.assignment[p]].push_back(points[p]);  // ascending
    std::map<std::vector<size_t>, size_t> previous;
    for (size_t g = 0; g < groups_.size(); ++g) {
      if (groups_[g].alive && !groups_[g].members.empty()) previous.emplace(groups_[g].members, g);
    }
    for (size_t c = 0; c < clusters.size(); ++c) {
      if (clusters[c].empty()) continue;
      size_t g;
      if (auto it = previous.find(clusters[c]); it != previous.end()) {
        g = it->second;
      } else {
        g = groups_.size();
        Group fresh;
        fresh.embedding = km.centroids[c];
        l2_normalise(fresh.embedding);
        groups_.push_back(std::move(fresh));
      }
      for (size_t i : clusters[c]) assign[i] = g;
    }
  }

  void set_members(const std::vector<size_t>& assign) {
    for (auto& g : groups_) g.members.clear();
    for (size_t i = 0; i < assign.size(); ++i) groups_[assign[i]].members.push_back(i);
    for (auto& g : groups_) {
      // An emptied group of commits is gone; an untouched principle may still attract commits later.
      if (g.members.empty() && (!g.from_principle || !g.distilled.empty())) g.alive = false;
    }
  }

  void kmeans_groups() {
    std::vector<size_t> all(commits_.size()), assign(commits_.size(), kNone);
    std::iota(all.begin(), all.end(), 0);
    group_rest(all, assign);
    set_members(assign);
    distil_changed("distil");
    result_.stats.rounds = 1;
  }

  void two_level_groups() {
    std::vector<std::string> texts;
    for (const auto& p : options_.principles) texts.push_back(p.description);
    std::vector<Embedding> v = embed(texts);
    for (size_t i = 0; i < v.size(); ++i) {
      Group g;
      g.description = texts[i];
      g.embedding = std::move(v[i]);
      g.from_principle = true;
      groups_.push_back(std::move(g));
    }
    std::vector<size_t> pairing;  // each commit's group after the last round
    for (size_t round = 1; round <= options_.max_rounds; ++round) {
      result_.stats.rounds = round;
      // Associate: a commit stays with its thought while within delta (so that the pairing settles instead
      // of flipping between two thoughts at similar distances); otherwise it joins the nearest live thought
      // within delta; the rest are grouped anew.
      std::vector<size_t> live;
      std::vector<Embedding> centroids;
      for (size_t g = 0; g < groups_.size(); ++g) {
        if (groups_[g].alive) {
          live.push_back(g);
          centroids.push_back(groups_[g].embedding);
        }
      }
      std::vector<size_t> assign(commits_.size(), kNone), rest;
      const std::vector<Nearest> near = nearest_centroids(commit_vectors_, centroids);
      for (size_t i = 0; i < near.size(); ++i) {
        const size_t current = pairing.empty() ? kNone : pairing[i];
        if (current != kNone && groups_[current].alive &&
            cosine_distance(commit_vectors_[i], groups_[current].embedding) <= options_.delta) {
          assign[i] = current;
        } else if (near[i].distance <= options_.delta) {
          assign[i] = live[near[i].index];
        } else {
          rest.push_back(i);
        }
      }
      group_rest(rest, assign);
      // Nothing moved: the descriptions are those of these very groups, so every later round is the same.
      if (assign == pairing) {
        result_.stats.stable = true;
        break;
      }
      pairing = assign;
      set_members(assign);
      distil_changed("round " + std::to_string(round));
    }
    for (const auto& g : groups_) result_.stats.from_principles += g.alive && g.from_principle && !g.members.empty();
  }

  void count_delta() {
    for (const auto& g : groups_) {
      if (!g.alive) continue;
      for (size_t i : g.members) {
        if (cosine_distance(commit_vectors_[i], g.embedding) <= options_.delta) {
          ++result_.stats.within_delta;
        } else {
          ++result_.stats.beyond_delta;
        }
      }
    }
    result_.stats.converged =
        options_.variant == PoolVariant::two_level && result_.stats.stable && result_.stats.beyond_delta == 0;
  }

  // Thoughts -> ideas: K-means over the thoughts' embeddings, a principle distilled for each cluster.
  void build_ideas() {
    std::vector<size_t> thoughts;
    for (size_t g = 0; g < groups_.size(); ++g) {
      if (groups_[g].alive && !groups_[g].members.empty()) thoughts.push_back(g);
    }
    report("ideas", 0, thoughts.size());
    std::vector<Embedding> x;
    for (size_t g : thoughts) x.push_back(groups_[g].embedding);
    size_t k = options_.idea_count;
    if (k == 0) k = static_cast<size_t>(std::lround(std::sqrt(static_cast<double>(thoughts.size()))));
    k = std::clamp<size_t>(k, 1, thoughts.size());
    const KMeansResult km = kmeans(x, {.k = k, .spherical = true, .seed = options_.seed + 7919});
    std::vector<std::vector<size_t>> clusters(km.centroids.size());
    for (size_t t = 0; t < thoughts.size(); ++t) clusters[km.assignment[t]].push_back(thoughts[t]);
    std::erase_if(clusters, [](const auto& c) { return c.empty(); });

    std::vector<Idea> ideas(clusters.size());
    std::atomic<size_t> done{0};
    parallel_for(clusters.size(), options_.parallel, [&](size_t c) {
      std::vector<std::string> descriptions;
      for (size_t g : clusters[c]) descriptions.push_back(groups_[g].description);
      ideas[c].principle = distiller_.principle(descriptions);
      report("ideas", ++done, clusters.size());
    });
    result_.stats.distillations += clusters.size();
    for (size_t c = 0; c < clusters.size(); ++c) {
      for (size_t g : clusters[c]) {
        Thought t = summarise_thought(groups_[g].description, members_of(groups_[g]), options_.max_examples,
                                      options_.max_example_chars);
        thought_members_.push_back(groups_[g].members);
        t.id = std::to_string(thought_members_.size() - 1);  // a handle until finish() names it
        ideas[c].thoughts.push_back(std::move(t));
      }
    }
    result_.pool.ideas = std::move(ideas);
  }

  void raw() {
    for (size_t i = 0; i < commits_.size(); ++i) {
      const MinedCommit& c = commits_[i];
      std::string message = c.text();
      // The first paragraph: the title and the sentences that explain it.
      const size_t para = message.find("\n\n");
      if (para != std::string::npos && para > 0) message.resize(para);
      std::replace(message.begin(), message.end(), '\n', ' ');
      if (message.size() > 400) message = message.substr(0, 397) + "...";
      if (message.empty()) message = "commit " + c.info.sha;
      Idea idea;
      idea.principle = c.info.title.empty() ? message : c.info.title;
      idea.thoughts.push_back(summarise_thought(message, {&c}, options_.max_examples, options_.max_example_chars));
      thought_members_.push_back({i});
      idea.thoughts.back().id = std::to_string(i);
      result_.pool.ideas.push_back(std::move(idea));
    }
    result_.stats.within_delta = commits_.size();
  }

  // Stable order and ids: ideas by commits covered (most first), then by their newest commit; thoughts the
  // same within an idea. Effectiveness of an idea: the mean of its thoughts' (as the pool reader derives it).
  void finish() {
    struct Key {
      size_t commits = 0, first = kNone;
    };
    auto thought_key = [&](const Thought& t) {
      const auto& m = thought_members_[std::stoul(t.id)];
      return Key{m.size(), m.empty() ? kNone : *std::min_element(m.begin(), m.end())};
    };
    auto before = [](const Key& a, const Key& b) {
      return a.commits != b.commits ? a.commits > b.commits : a.first < b.first;
    };
    std::vector<Key> idea_keys;
    for (auto& idea : result_.pool.ideas) {
      std::stable_sort(idea.thoughts.begin(), idea.thoughts.end(),
                       [&](const Thought& a, const Thought& b) { return before(thought_key(a), thought_key(b)); });
    }
    std::stable_sort(result_.pool.ideas.begin(), result_.pool.ideas.end(), [&](const Idea& a, const Idea& b) {
      Key ka, kb;
      for (const auto& t : a.thoughts)
        ka.commits += thought_key(t).commits, ka.first = std::min(ka.first, thought_key(t).first);
      for (const auto& t : b.thoughts)
        kb.commits += thought_key(t).commits, kb.first = std::min(kb.first, thought_key(t).first);
      return before(ka, kb);
    });
    result_.thought_of_commit.assign(commits_.size(), "");
    for (size_t i = 0; i < result_.pool.ideas.size(); ++i) {
      Idea& idea = result_.pool.ideas[i];
      idea.id = "I" + std::to_string(i + 1);
      double sum = 0;
      for (size_t j = 0; j < idea.thoughts.size(); ++j) {
        Thought& t = idea.thoughts[j];
        const size_t handle = std::stoul(t.id);
        t.id = idea.id + ".T" + std::to_string(j + 1);
        for (size_t c : thought_members_[handle]) result_.thought_of_commit[c] = t.id;
        sum += t.effectiveness;
      }
      idea.effectiveness = idea.thoughts.empty() ? 0 : sum / static_cast<double>(idea.thoughts.size());
    }
    result_.stats.ideas = result_.pool.ideas.size();
    result_.stats.thoughts = result_.pool.thought_count();

    IdeaPool& pool = result_.pool;
    pool.schema = "eok-idea-pool/1";
    pool.source["variant"] = variant_name(options_.variant);
    pool.source["distiller"] = options_.variant == PoolVariant::raw ? "none (raw commits)" : distiller_.describe();
    pool.source["embedder"] = options_.variant == PoolVariant::raw ? "none (raw commits)" : embedder_.describe();
    pool.source["commits"] = std::to_string(commits_.size());
    pool.source["seed"] = std::to_string(options_.seed);
    if (options_.variant == PoolVariant::two_level) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.4g", options_.delta);
      pool.source["delta"] = buf;
      pool.source["rounds"] = std::to_string(result_.stats.rounds) + (result_.stats.converged ? " (converged)"
                                                                      : result_.stats.stable  ? " (stable)"
                                                                                              : " (round cap)");
    }
    pool.description = std::string(variant_name(options_.variant)) + " pool: " + std::to_string(result_.stats.ideas) +
                       " ideas, " + std::to_string(result_.stats.thoughts) + " thoughts from " +
                       std::to_string(commits_.size()) + " commits";
  }

  const std::vector<MinedCommit>& commits_;
  llm::Embedder& embedder_;
  Distiller& distiller_;
  const AbstractionOptions& options_;
  std::vector<Embedding> commit_vectors_;
  std::vector<Group> groups_;
  std::map<std::vector<size_t>, std::pair<std::string, Embedding>> memo_;  // members -> description, embedding
  std::vector<std::vector<size_t>> thought_members_;  // by the handle a Thought carries in its id until finish()
  Abstraction result_;
  std::mutex report_mutex_;
};

// The sections of a unified diff, one per file: ("kernel/x.c", "diff --git a/kernel/x.c b/kernel/x.c ...").
std::vector<std::pair<std::string, std::string>> diff_sections(const MinedCommit& c) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string& d = c.diff;
  size_t pos = d.starts_with("diff --git ") ? 0 : d.find("\ndiff --git ");
  if (pos == std::string::npos) {
    if (!d.empty()) out.emplace_back(c.kernel_files.empty() ? "" : c.kernel_files[0].path, d);
    return out;
  }
  if (pos > 0) ++pos;
  while (pos < d.size()) {
    size_t next = d.find("\ndiff --git ", pos);
    const size_t end = next == std::string::npos ? d.size() : next + 1;
    const std::string section = d.substr(pos, end - pos);
    const size_t line_end = section.find('\n');
    const std::string header = section.substr(0, line_end);
    std::string file;
    if (const size_t b = header.rfind(" b/"); b != std::string::npos) file = header.substr(b + 3);
    out.emplace_back(file, section);
    pos = end;
  }
  return out;
}

}  // namespace

const char* variant_name(PoolVariant v) {
  switch (v) {
    case PoolVariant::raw:
      return "raw";
    case PoolVariant::kmeans:
      return "kmeans";
    case PoolVariant::two_level:
      return "two-level";
  }
  return "two-level";
}

PoolVariant parse_variant(std::string_view name) {
  if (name == "raw") return PoolVariant::raw;
  if (name == "kmeans") return PoolVariant::kmeans;
  if (name == "two-level" || name == "two_level") return PoolVariant::two_level;
  throw ConfigError("unknown idea pool variant '" + std::string(name) + "': use raw, kmeans or two-level");
}

Thought summarise_thought(std::string description, const std::vector<const MinedCommit*>& commits, size_t max_examples,
                          size_t max_example_chars) {
  Thought t;
  t.description = std::move(description);
  double weighted = 0, weight = 0, plain = 0, confidence = 0;
  bool measured = false;
  for (const MinedCommit* c : commits) {
    const Effect& e = c->effect;
    const double w = std::clamp(e.confidence, 0.0, 1.0);
    weighted += w * e.improvement;
    weight += w;
    plain += e.improvement;
    confidence += w * w;
    measured |= e.measured;
    t.commits.push_back({c->info.sha, c->info.title, e.improvement, !e.measured});
  }
  if (weight > 0) {
    t.effectiveness = weighted / weight;
    t.confidence = confidence / weight;
  } else if (!commits.empty()) {
    t.effectiveness = plain / static_cast<double>(commits.size());
  }
  t.estimated = !measured;

  std::vector<const MinedCommit*> best(commits.begin(), commits.end());
  std::stable_sort(best.begin(), best.end(), [](const MinedCommit* a, const MinedCommit* b) {
    if (a->effect.measured != b->effect.measured) return a->effect.measured;
    return a->effect.improvement > b->effect.improvement;
  });
  for (const MinedCommit* c : best) {
    if (t.examples.size() >= max_examples) break;
    const auto sections = diff_sections(*c);
    if (sections.empty()) continue;
    std::string code = sections.front().second;
    if (code.size() > max_example_chars) {
      const size_t cut = code.rfind('\n', max_example_chars);
      code.resize(cut == std::string::npos || cut == 0 ? max_example_chars : cut + 1);
      code += "[...]\n";
    }
    t.examples.push_back({c->info.sha, sections.front().first, std::move(code)});
  }
  return t;
}

Abstraction abstract_commits(const std::vector<MinedCommit>& commits, llm::Embedder& embedder, Distiller& distiller,
                             const AbstractionOptions& options) {
  if (commits.empty())
    throw Error("no commits to abstract into ideas: the walk kept none (check the branch and the commit filter)");
  if (options.group_size == 0) throw ConfigError("idea pool: group_size must be at least 1");
  if (options.delta < 0 || options.delta > 2)
    throw ConfigError("idea pool: delta is a cosine distance in [0, 2]; got " + std::to_string(options.delta));
  if (options.variant == PoolVariant::two_level && options.max_rounds == 0)
    throw ConfigError("idea pool: max_rounds must be at least 1");
  return Miner(commits, embedder, distiller, options).run();
}

}  // namespace eok::idea_pool
