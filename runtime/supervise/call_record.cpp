// runtime/supervise/call_record.cpp -- see call_record.h.
#include "supervise/call_record.h"

#include <cmath>
#include <cstring>
#include <new>

namespace lsdae::supervise {

namespace {

CallPage g_static_page;
std::atomic<CallPage*> g_page{&g_static_page};

constexpr const char* kNames[] = {
    "(no call)",
    "loading the binary (dlopen)",
    "fmi3GetVersion",
    "fmi3InstantiateModelExchange",
    "fmi3FreeInstance",
    "fmi3EnterConfigurationMode",
    "fmi3ExitConfigurationMode",
    "fmi3EnterInitializationMode",
    "fmi3ExitInitializationMode",
    "fmi3EnterEventMode",
    "fmi3UpdateDiscreteStates",
    "fmi3EnterContinuousTimeMode",
    "fmi3CompletedIntegratorStep",
    "fmi3Terminate",
    "fmi3Reset",
    "fmi3SetTime",
    "fmi3SetContinuousStates",
    "fmi3GetContinuousStates",
    "fmi3GetContinuousStateDerivatives",
    "fmi3GetEventIndicators",
    "fmi3GetNominalsOfContinuousStates",
    "fmi3GetNumberOfContinuousStates",
    "fmi3GetNumberOfEventIndicators",
    "fmi3GetDirectionalDerivative",
    "fmi3GetFloat64",
    "fmi3SetFloat64",
    "fmi3GetBoolean",
    "fmi3SetBoolean",
    "fmi3GetInt32",
    "fmi3SetInt32",
    "fmi3GetInt64",
    "fmi3SetInt64",
    "fmi3GetFloat32",
    "fmi3SetFloat32",
    "fmi3GetInt8",
    "fmi3SetInt8",
    "fmi3GetUInt8",
    "fmi3SetUInt8",
    "fmi3GetInt16",
    "fmi3SetInt16",
    "fmi3GetUInt16",
    "fmi3SetUInt16",
    "fmi3GetUInt32",
    "fmi3SetUInt32",
    "fmi3GetUInt64",
    "fmi3SetUInt64",
    "fmi3GetString",
    "fmi3SetString",
    "fmi3GetBinary",
    "fmi3SetBinary",
    "fmi2GetVersion",
    "fmi2Instantiate",
    "fmi2FreeInstance",
    "fmi2SetupExperiment",
    "fmi2EnterInitializationMode",
    "fmi2ExitInitializationMode",
    "fmi2EnterEventMode",
    "fmi2NewDiscreteStates",
    "fmi2EnterContinuousTimeMode",
    "fmi2CompletedIntegratorStep",
    "fmi2Terminate",
    "fmi2Reset",
    "fmi2SetTime",
    "fmi2SetContinuousStates",
    "fmi2GetContinuousStates",
    "fmi2GetDerivatives",
    "fmi2GetEventIndicators",
    "fmi2GetNominalsOfContinuousStates",
    "fmi2GetDirectionalDerivative",
    "fmi2GetReal",
    "fmi2SetReal",
    "fmi2GetInteger",
    "fmi2SetInteger",
    "fmi2GetBoolean",
    "fmi2SetBoolean",
    "fmi2GetString",
    "fmi2SetString",
    "fmi2GetNumberOfConstraints",
    "fmi2Constraint",
    "fmi2ConstraintJacobian",
    "fmi2ProjectionStep",
    "fmi2Projection",
};
static_assert(std::size(kNames) == static_cast<std::size_t>(FmuFunction::count_), "one name per FmuFunction");

void init_slot(CallSlot& slot, std::string_view name) noexcept {
  slot.function.store(0, std::memory_order_relaxed);
  slot.time.store(std::nan(""), std::memory_order_relaxed);
  const std::size_t n = std::min(name.size(), kInstanceNameBytes - 1);
  std::memcpy(slot.instance, name.data(), n);
  slot.instance[n] = '\0';
}

}  // namespace

const char* function_name(std::uint32_t function) noexcept {
  return function < std::size(kNames) ? kNames[function] : "?";
}

CallPage& current_page() noexcept { return *g_page.load(std::memory_order_acquire); }

void use_page(CallPage* page) noexcept { g_page.store(page != nullptr ? page : &g_static_page, std::memory_order_release); }

void reset_page(CallPage& page) noexcept {
  page.progress_rows.store(0);
  page.progress_time.store(0.0);
  page.progress_set.store(0);
  page.report.store(0);
  page.exit_code.store(0);
  page.error_kind.store(0);
  page.slots_high.store(1);
  page.stop_request.store(0);
  std::memset(page.message, 0, sizeof page.message);
  for (CallSlot& slot : page.slots) {
    slot.used.store(0);
    slot.function.store(0);
    slot.sequence.store(0);
    slot.time.store(std::nan(""));
    std::memset(slot.instance, 0, sizeof slot.instance);
  }
  page.slots[0].used.store(1);
  init_slot(page.slots[0], "");
  page.slots[kSlots - 1].used.store(1);
  init_slot(page.slots[kSlots - 1], "(one of many instances)");
}

CallSlot* claim_slot(std::string_view instance) noexcept {
  CallPage& page = current_page();
  for (std::size_t i = 1; i + 1 < kSlots; ++i) {
    std::uint32_t expected = 0;
    if (page.slots[i].used.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) {
      init_slot(page.slots[i], instance);
      std::uint32_t high = page.slots_high.load(std::memory_order_relaxed);
      while (high < i + 1 && !page.slots_high.compare_exchange_weak(high, static_cast<std::uint32_t>(i + 1))) {
      }
      return &page.slots[i];
    }
  }
  page.slots_high.store(static_cast<std::uint32_t>(kSlots));
  return &page.slots[kSlots - 1];
}

void release_slot(CallSlot* slot) noexcept {
  CallPage& page = current_page();
  if (slot == nullptr || slot == &page.slots[0] || slot == &page.slots[kSlots - 1]) return;
  if (slot < &page.slots[0] || slot >= &page.slots[kSlots]) return;  // claimed from another page
  slot->function.store(0, std::memory_order_relaxed);
  slot->used.store(0, std::memory_order_release);
}

CallSlot* loader_slot() noexcept { return &current_page().slots[0]; }

std::string read_bounded(const char* field, std::size_t bytes) {
  std::size_t n = 0;
  while (n < bytes && field[n] != '\0') ++n;
  return std::string(field, n);
}

namespace {
// The static page starts with its fixed slots named, like a fresh shared one.
struct StaticPageInit {
  StaticPageInit() { reset_page(g_static_page); }
} g_static_page_init;
}  // namespace

}  // namespace lsdae::supervise
