// An open-addressing hash map from 128-bit keys, for the table's entries and
// leaf values: one probe sequence in one array, no allocation per insert.
// (std::unordered_map allocated a node per entry and chased a pointer per
// lookup; a lookup is made at almost every node.)
#ifndef STARSPIEL_BOTS_NATIVE_FLAT_MAP_H_
#define STARSPIEL_BOTS_NATIVE_FLAT_MAP_H_

#include <cstdint>
#include <vector>

#include "bots/native/keys.h"

namespace starspiel {

inline std::uint64_t MixKey(Key key) {
  std::uint64_t h = static_cast<std::uint64_t>(key) ^
                    (static_cast<std::uint64_t>(key >> 64) * 0x9E3779B97F4A7C15ULL);
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 32;
  return h;
}

template <class Value>
class FlatMap {
 public:
  std::size_t size() const { return size_; }

  Value* Find(Key key) {
    if (size_ == 0) return nullptr;
    for (std::size_t i = MixKey(key) & mask_;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (!slot.used) return nullptr;
      if (slot.key == key) return &slot.value;
    }
  }

  const Value* Find(Key key) const { return const_cast<FlatMap*>(this)->Find(key); }

  // Inserts or overwrites; returns whether the key was new.
  bool Put(Key key, const Value& value) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    for (std::size_t i = MixKey(key) & mask_;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (!slot.used) {
        slot.used = true;
        slot.key = key;
        slot.value = value;
        ++size_;
        return true;
      }
      if (slot.key == key) {
        slot.value = value;
        return false;
      }
    }
  }

  // Removes `key` if present (backward-shift deletion: no tombstones).
  void Erase(Key key) {
    if (size_ == 0) return;
    std::size_t i = MixKey(key) & mask_;
    for (;; i = (i + 1) & mask_) {
      if (!slots_[i].used) return;
      if (slots_[i].key == key) break;
    }
    std::size_t hole = i;
    for (std::size_t j = (hole + 1) & mask_; slots_[j].used; j = (j + 1) & mask_) {
      const std::size_t home = MixKey(slots_[j].key) & mask_;
      // Move j into the hole unless its home lies cyclically in (hole, j].
      const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
      if (!stays) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole].used = false;
    --size_;
  }

  // Bytes held by the slots (the map's whole memory but the object itself).
  std::size_t SlotBytes() const { return slots_.capacity() * sizeof(Slot); }

  void Clear() {
    slots_.clear();
    mask_ = 0;
    size_ = 0;
  }

 private:
  struct Slot {
    Key key = 0;
    Value value{};
    bool used = false;
  };

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    const std::size_t capacity = old.empty() ? 64 : old.size() * 2;
    slots_.assign(capacity, Slot());
    mask_ = capacity - 1;
    // Put's probe without its checks: the keys are distinct and the new slots ample.
    for (const Slot& slot : old) {
      if (!slot.used) continue;
      std::size_t i = MixKey(slot.key) & mask_;
      while (slots_[i].used) i = (i + 1) & mask_;
      slots_[i] = slot;
    }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_FLAT_MAP_H_
