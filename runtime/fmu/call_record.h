// runtime/fmu/call_record.h -- "the FMU call in progress": the record a
// supervising parent process reads to say where a child died or hung.
//
// Layout. One CallRecord per process: an ordinary static object, unless a
// supervisor (runtime/supervise/, lsdae/supervise.h) hands the child one in
// memory it shares with the parent (use_record), so the parent sees every
// store the child makes, also after the child was killed. Nobody reads the
// static record: the hooks cost the same either way.
//
// The record holds one CallSlot per live FMU instance (claimed at
// instantiation, released after fmi3FreeInstance / fmi2FreeInstance; slot 0
// is the binary loader's). Around every call into the FMU the instance
// writes, with relaxed atomic stores (plain moves on x86-64 and AArch64, no
// system call, no lock):
//   before: sequence + 1, function = the fmi3 or fmi2 function (fmi_functions.h)
//   after:  function = none
// and SetTime / EnterInitializationMode (fmi2SetupExperiment) also store the
// simulation time. A watchdog samples (function, sequence): the same pair
// seen for longer than its limit is one call that has not returned.
// Cost: under a nanosecond per call on x86-64 (measured around an empty
// out-of-line function, which itself costs about 2 ns); an FMU call that
// moves thousands of values costs microseconds.
//
// The record is written by the FMU binding alone (fmu_instance.h, the
// libraries' loading); the supervisor reads it. The child is untrusted (the
// FMU runs there and may scribble over the record): a reader reads only
// fixed-size numbers and characters, checks every index and copies strings
// with a bound (read_bounded). No pointer crosses the record.
#ifndef LSDAE_RUNTIME_FMU_CALL_RECORD_H
#define LSDAE_RUNTIME_FMU_CALL_RECORD_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fmu/fmi_functions.h"

namespace lsdae::call_record {

inline constexpr std::size_t kInstanceNameBytes = 40;

struct alignas(64) CallSlot {
  std::atomic<std::uint32_t> used{0};      // 1 while an instance owns the slot
  std::atomic<std::uint32_t> function{0};  // the FmiFunction in progress; none between calls
  std::atomic<std::uint64_t> sequence{0};  // calls started through this slot
  std::atomic<double> time{0.0};           // last simulation time given to the FMU (NaN: none yet)
  char instance[kInstanceNameBytes] = {};  // the instance name, NUL-terminated (truncated)
};
static_assert(std::atomic<double>::is_always_lock_free && std::atomic<std::uint64_t>::is_always_lock_free,
              "the call record must be lock-free to live in shared memory");
static_assert(sizeof(CallSlot) == 64);

// Slots: 0 the loader, 1..kSlots-2 instances, kSlots-1 shared by every
// instance beyond that (a run with more than 1022 threads).
inline constexpr std::size_t kSlots = 1024;

struct CallRecord {
  std::atomic<std::uint32_t> slots_high{1};  // slots [0, slots_high) were ever claimed
  CallSlot slots[kSlots];
};

// The record of this process: the one a supervisor handed over, else a
// static one.
CallRecord& current() noexcept;
// Supervisor use only: a supervised child switches to the shared record
// before running its work function; nullptr switches back to the static one.
void use_record(CallRecord* record) noexcept;
// Clears every slot and names the fixed ones (the supervisor does this to
// a fresh shared record).
void reset(CallRecord& record) noexcept;

// Claims a free slot for `instance` (the shared overflow slot when none is
// left); release_slot frees it. Slot 0 (the loader's) is loader_slot().
CallSlot* claim_slot(std::string_view instance) noexcept;
void release_slot(CallSlot* slot) noexcept;
CallSlot* loader_slot() noexcept;

// Marks one FMU call in progress for its lifetime (see the file comment).
class CallScope {
 public:
  CallScope(CallSlot* slot, FmiFunction function) noexcept : slot_(slot) {
    slot_->sequence.store(slot_->sequence.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    slot_->function.store(static_cast<std::uint32_t>(function), std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);  // compiler barrier only: no instruction
  }
  ~CallScope() {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    slot_->function.store(0, std::memory_order_relaxed);
  }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

 private:
  CallSlot* slot_;
};

inline void note_time(CallSlot* slot, double time) noexcept { slot->time.store(time, std::memory_order_relaxed); }

// A bounded copy of a NUL-terminated field of an untrusted record.
std::string read_bounded(const char* field, std::size_t bytes);

}  // namespace lsdae::call_record

#endif  // LSDAE_RUNTIME_FMU_CALL_RECORD_H
