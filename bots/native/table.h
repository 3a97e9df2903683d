// The transposition table of bots/transposition.py, entry for entry.
//
// Same capacity, same replacement (a position keeps its latest entry; when
// full, the oldest shallow entry goes; the deep share is kept apart and ages
// into the shallow line), same first-in-first-out leaf store. Equal policies
// make the two engines store, find and evict the same entries, so their node
// counts agree.
#ifndef STARSPIEL_BOTS_NATIVE_TABLE_H_
#define STARSPIEL_BOTS_NATIVE_TABLE_H_

#include <algorithm>
#include <cstdint>
#include <deque>

#include "bots/native/flat_map.h"
#include "bots/native/keys.h"

namespace starspiel {

struct KeyHash {
  std::size_t operator()(Key key) const {
    const std::uint64_t low = static_cast<std::uint64_t>(key);
    const std::uint64_t high = static_cast<std::uint64_t>(key >> 64);
    std::uint64_t h = low ^ (high * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return static_cast<std::size_t>(h);
  }
};

struct Entry {
  int depth;
  double lower;
  double upper;
  std::int64_t move;  // kNoMove where none
};

constexpr std::int64_t kNoMove = -1;

// mirrors: bots/transposition.py TranspositionTable
class TranspositionTable {
 public:
  static constexpr int kDeep = 2;

  explicit TranspositionTable(std::int64_t capacity, double deep_share = 0.5)
      : capacity_(capacity), deep_capacity_(static_cast<std::int64_t>(capacity * deep_share)) {}

  // mirrors: bots/transposition.py TranspositionTable.get
  const Entry* Get(Key key) const { return entries_.Find(key); }

  const double* GetLeaf(Key key) const { return leaf_values_.Find(key); }

  // mirrors: bots/transposition.py TranspositionTable.store_leaf
  void StoreLeaf(Key key, double value) {
    if (static_cast<std::int64_t>(leaf_values_.size()) >= capacity_) {
      leaf_values_.Erase(leaf_order_.front());
      leaf_order_.pop_front();
    }
    leaf_values_.Put(key, value);
    leaf_order_.push_back(key);
  }

  // mirrors: bots/transposition.py TranspositionTable.store
  void Store(Key key, int depth, double lower, double upper, std::int64_t move) {
    if (Entry* entry = entries_.Find(key)) {
      *entry = Entry{depth, lower, upper, move};
      return;
    }
    if (static_cast<std::int64_t>(entries_.size()) >= capacity_) Evict();
    if (depth >= kDeep && deep_capacity_) {
      if (static_cast<std::int64_t>(deep_order_.size()) >= deep_capacity_) {
        shallow_order_.push_back(deep_order_.front());
        deep_order_.pop_front();
      }
      deep_order_.push_back(key);
    } else {
      shallow_order_.push_back(key);
    }
    entries_.Put(key, Entry{depth, lower, upper, move});
  }

  std::int64_t size() const { return static_cast<std::int64_t>(entries_.size()); }
  std::int64_t leaf_size() const { return static_cast<std::int64_t>(leaf_values_.size()); }
  std::int64_t evictions() const { return evictions_; }
  // Bytes held: both maps' slots and the replacement queues' keys (what grows with
  // the entries; a key is 16 bytes whatever the game's length).
  std::int64_t MemoryBytes() const {
    const std::size_t queued = shallow_order_.size() + deep_order_.size() + leaf_order_.size();
    return static_cast<std::int64_t>(entries_.SlotBytes() + leaf_values_.SlotBytes() +
                                     queued * sizeof(Key));
  }

  // mirrors: bots/transposition.py TranspositionTable.clear
  void Clear() {
    entries_.Clear();
    shallow_order_.clear();
    deep_order_.clear();
    leaf_values_.Clear();
    leaf_order_.clear();
  }

 private:
  // mirrors: bots/transposition.py TranspositionTable._evict
  void Evict() {
    while (!shallow_order_.empty()) {
      const Key key = shallow_order_.front();
      shallow_order_.pop_front();
      if (entries_.Find(key)->depth >= kDeep &&
          static_cast<std::int64_t>(deep_order_.size()) < deep_capacity_) {
        deep_order_.push_back(key);  // re-stored deeper since: it joins the deep entries
        continue;
      }
      entries_.Erase(key);
      ++evictions_;
      return;
    }
    entries_.Erase(deep_order_.front());
    deep_order_.pop_front();
    ++evictions_;
  }

  std::int64_t capacity_;
  std::int64_t deep_capacity_;
  std::int64_t evictions_ = 0;
  FlatMap<Entry> entries_;
  std::deque<Key> shallow_order_;
  std::deque<Key> deep_order_;
  FlatMap<double> leaf_values_;
  std::deque<Key> leaf_order_;
};

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_TABLE_H_
