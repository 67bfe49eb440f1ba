// runtime/fmu/call_record.cpp -- see call_record.h.
#include "fmu/call_record.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace lsdae::call_record {

namespace {

CallRecord g_static_record;
std::atomic<CallRecord*> g_record{&g_static_record};

void init_slot(CallSlot& slot, std::string_view name) noexcept {
  slot.function.store(0, std::memory_order_relaxed);
  slot.time.store(std::nan(""), std::memory_order_relaxed);
  const std::size_t n = std::min(name.size(), kInstanceNameBytes - 1);
  std::memcpy(slot.instance, name.data(), n);
  slot.instance[n] = '\0';
}

}  // namespace

CallRecord& current() noexcept { return *g_record.load(std::memory_order_acquire); }

void use_record(CallRecord* record) noexcept {
  g_record.store(record != nullptr ? record : &g_static_record, std::memory_order_release);
}

void reset(CallRecord& record) noexcept {
  record.slots_high.store(1);
  for (CallSlot& slot : record.slots) {
    slot.used.store(0);
    slot.function.store(0);
    slot.sequence.store(0);
    slot.time.store(std::nan(""));
    std::memset(slot.instance, 0, sizeof slot.instance);
  }
  record.slots[0].used.store(1);
  init_slot(record.slots[0], "");
  record.slots[kSlots - 1].used.store(1);
  init_slot(record.slots[kSlots - 1], "(one of many instances)");
}

CallSlot* claim_slot(std::string_view instance) noexcept {
  CallRecord& record = current();
  for (std::size_t i = 1; i + 1 < kSlots; ++i) {
    std::uint32_t expected = 0;
    if (record.slots[i].used.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) {
      init_slot(record.slots[i], instance);
      std::uint32_t high = record.slots_high.load(std::memory_order_relaxed);
      while (high < i + 1 && !record.slots_high.compare_exchange_weak(high, static_cast<std::uint32_t>(i + 1))) {
      }
      return &record.slots[i];
    }
  }
  record.slots_high.store(static_cast<std::uint32_t>(kSlots));
  return &record.slots[kSlots - 1];
}

void release_slot(CallSlot* slot) noexcept {
  CallRecord& record = current();
  if (slot == nullptr || slot == &record.slots[0] || slot == &record.slots[kSlots - 1]) return;
  if (slot < &record.slots[0] || slot >= &record.slots[kSlots]) return;  // claimed from another record
  slot->function.store(0, std::memory_order_relaxed);
  slot->used.store(0, std::memory_order_release);
}

CallSlot* loader_slot() noexcept { return &current().slots[0]; }

std::string read_bounded(const char* field, std::size_t bytes) {
  std::size_t n = 0;
  while (n < bytes && field[n] != '\0') ++n;
  return std::string(field, n);
}

namespace {
// The static record starts with its fixed slots named, like a fresh shared one.
struct StaticRecordInit {
  StaticRecordInit() { reset(g_static_record); }
} g_static_record_init;
}  // namespace

}  // namespace lsdae::call_record
