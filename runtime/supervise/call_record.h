// runtime/supervise/call_record.h -- "the FMU call in progress": the record a
// supervising parent process reads to say where a child died or hung.
//
// Layout. One CallPage per process. In a child started by
// lsdae::run_isolated (lsdae/supervise.h) the page is a shared anonymous
// mapping (mmap MAP_SHARED | MAP_ANONYMOUS, created by the parent before
// fork), so the parent sees every store the child makes, also after the
// child was killed. In any other process the page is an ordinary static
// object: the hooks cost the same and nobody reads them.
//
// The page holds one CallSlot per live Instance (claimed at instantiation,
// released after fmi3FreeInstance / fmi2FreeInstance; slot 0 is the binary loader's). Around
// every call into the FMU the Instance writes, with relaxed atomic stores
// (plain moves on x86-64 and AArch64, no system call, no lock):
//   before: sequence + 1, function = the fmi3 or fmi2 function
//   after:  function = none
// and fmi3SetTime / fmi3EnterInitializationMode also store the simulation
// time. The parent's watchdog samples (function, sequence): the same pair
// seen for longer than the call limit is one call that has not returned.
// Cost: under a nanosecond per call on x86-64 (measured around an empty
// out-of-line function, which itself costs about 2 ns); an FMU call that
// moves thousands of values costs microseconds.
//
// The child is untrusted (the FMU runs there and may scribble over the
// page): the parent reads only fixed-size numbers and characters, checks
// every index and copies strings with a bound. No pointer crosses the page.
#ifndef LSDAE_RUNTIME_SUPERVISE_CALL_RECORD_H
#define LSDAE_RUNTIME_SUPERVISE_CALL_RECORD_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lsdae::supervise {

// The FMU entry points lsdae calls (plus loading the binary itself).
enum class FmuFunction : std::uint32_t {
  none = 0,
  load_binary,  // dlopen: the binary's own initialisers run here
  GetVersion,
  InstantiateModelExchange,
  FreeInstance,
  EnterConfigurationMode,
  ExitConfigurationMode,
  EnterInitializationMode,
  ExitInitializationMode,
  EnterEventMode,
  UpdateDiscreteStates,
  EnterContinuousTimeMode,
  CompletedIntegratorStep,
  Terminate,
  Reset,
  SetTime,
  SetContinuousStates,
  GetContinuousStates,
  GetContinuousStateDerivatives,
  GetEventIndicators,
  GetNominalsOfContinuousStates,
  GetNumberOfContinuousStates,
  GetNumberOfEventIndicators,
  GetDirectionalDerivative,
  GetFloat64,
  SetFloat64,
  GetBoolean,
  SetBoolean,
  GetInt32,
  SetInt32,
  GetInt64,
  SetInt64,
  GetFloat32,
  SetFloat32,
  GetInt8,
  SetInt8,
  GetUInt8,
  SetUInt8,
  GetInt16,
  SetInt16,
  GetUInt16,
  SetUInt16,
  GetUInt32,
  SetUInt32,
  GetUInt64,
  SetUInt64,
  GetString,
  SetString,
  GetBinary,
  SetBinary,
  // FMI 2.0 (runtime/fmi2): fmi2<Name>
  Fmi2GetVersion,
  Fmi2Instantiate,
  Fmi2FreeInstance,
  Fmi2SetupExperiment,
  Fmi2EnterInitializationMode,
  Fmi2ExitInitializationMode,
  Fmi2EnterEventMode,
  Fmi2NewDiscreteStates,
  Fmi2EnterContinuousTimeMode,
  Fmi2CompletedIntegratorStep,
  Fmi2Terminate,
  Fmi2Reset,
  Fmi2SetTime,
  Fmi2SetContinuousStates,
  Fmi2GetContinuousStates,
  Fmi2GetDerivatives,
  Fmi2GetEventIndicators,
  Fmi2GetNominalsOfContinuousStates,
  Fmi2GetDirectionalDerivative,
  Fmi2GetReal,
  Fmi2SetReal,
  Fmi2GetInteger,
  Fmi2SetInteger,
  Fmi2GetBoolean,
  Fmi2SetBoolean,
  Fmi2GetString,
  Fmi2SetString,
  Fmi2GetNumberOfConstraints,
  Fmi2Constraint,
  Fmi2ConstraintJacobian,
  Fmi2ProjectionStep,
  Fmi2Projection,
  count_  // not a function
};
// "fmi3GetFloat64", "fmi2GetReal", ...; "loading the binary (dlopen)" for load_binary; "?"
// for a value out of range (read from an untrusted page).
const char* function_name(std::uint32_t function) noexcept;

inline constexpr std::size_t kInstanceNameBytes = 40;

struct alignas(64) CallSlot {
  std::atomic<std::uint32_t> used{0};      // 1 while an Instance owns the slot
  std::atomic<std::uint32_t> function{0};  // FmuFunction in progress; none between calls
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
inline constexpr std::size_t kMessageBytes = 32768;

// What the child reports when its work function ends (no FMU involved).
enum class ReportState : std::uint32_t { running = 0, returned = 1, failed = 2 };

// Parent → child: why the parent asks the child to stop (0: it does not).
// A positive value is the signal (SIGINT, SIGTERM, SIGHUP) the parent got.
inline constexpr std::int32_t kStopForTimeout = -1;

struct CallPage {
  // child → parent: progress, published by the work function
  std::atomic<std::uint64_t> progress_rows{0};
  std::atomic<double> progress_time{0.0};
  std::atomic<std::uint32_t> progress_set{0};  // 1 once progress was published
  // child → parent: how the work function ended
  std::atomic<std::uint32_t> report{0};        // ReportState
  std::atomic<std::int32_t> exit_code{0};      // returned: its value
  std::atomic<std::int32_t> error_kind{0};     // failed: the lsdae::ErrorKind
  std::atomic<std::uint32_t> slots_high{1};    // slots [0, slots_high) were ever claimed
  // parent → child
  std::atomic<std::int32_t> stop_request{0};
  char message[kMessageBytes] = {};            // failed: the message, NUL-terminated (truncated)
  CallSlot slots[kSlots];
};

// The page of this process: the shared one in a supervised child, else a
// static one.
CallPage& current_page() noexcept;
// Supervisor use only: the child switches to the shared page before running
// its work function; nullptr switches back to the static page.
void use_page(CallPage* page) noexcept;
// Clears every field (the parent does this to a fresh shared page).
void reset_page(CallPage& page) noexcept;

// Claims a free slot for `instance` (the shared overflow slot when none is
// left); release_slot frees it. Slot 0 (the loader's) is loader_slot().
CallSlot* claim_slot(std::string_view instance) noexcept;
void release_slot(CallSlot* slot) noexcept;
CallSlot* loader_slot() noexcept;

// Marks one FMU call in progress for its lifetime (see the file comment).
class CallScope {
 public:
  CallScope(CallSlot* slot, FmuFunction function) noexcept : slot_(slot) {
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

// A bounded copy of a NUL-terminated field of an untrusted page.
std::string read_bounded(const char* field, std::size_t bytes);

}  // namespace lsdae::supervise

#endif  // LSDAE_RUNTIME_SUPERVISE_CALL_RECORD_H
