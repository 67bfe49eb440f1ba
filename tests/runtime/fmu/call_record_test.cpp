// tests/runtime/fmu/call_record_test.cpp -- the call record an FMU instance
// keeps (runtime/fmu/call_record.h): its slot, the calls and times it marks,
// and the names the supervisor reads back (runtime/fmu/fmi_functions.h).
#include "fmu/call_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "catalog.h"
#include "fmu/fmi_functions.h"
#include "lsdae/fmu.h"
#include "lsdae/instance.h"

namespace lsdae {
namespace {

TEST(CallRecord, AnInstanceHasASlotWithItsNameAndTime) {
  auto fmu = Fmu::open(test::fmu_path("HelloWorld_ode"));
  call_record::CallRecord& record = call_record::current();
  auto find = [&](const std::string& name) -> const call_record::CallSlot* {
    for (const auto& slot : record.slots)
      if (slot.used.load() != 0 && call_record::read_bounded(slot.instance, call_record::kInstanceNameBytes) == name)
        return &slot;
    return nullptr;
  };
  {
    auto inst = fmu->instantiate("record-me");
    const call_record::CallSlot* slot = find("record-me");
    ASSERT_NE(slot, nullptr);
    EXPECT_GE(slot->sequence.load(), 1u) << "fmi3InstantiateModelExchange went through it";
    EXPECT_EQ(slot->function.load(), 0u) << "no call in progress between calls";
    EXPECT_TRUE(std::isnan(slot->time.load())) << "no time before initialization";
    inst->enter_initialization_mode(std::nullopt, 0.25, std::nullopt);
    EXPECT_EQ(slot->time.load(), 0.25);
    inst->exit_initialization_mode();
    inst->update_discrete_states();
    inst->enter_continuous_time_mode();
    const std::uint64_t before = slot->sequence.load();
    inst->set_time(0.75);
    EXPECT_EQ(slot->time.load(), 0.75);
    EXPECT_EQ(slot->sequence.load(), before + 1);
  }
  EXPECT_EQ(find("record-me"), nullptr) << "the slot is released with the instance";
}

TEST(CallRecord, NamesAreBoundedAndUnknownFunctionsAreMarked) {
  EXPECT_STREQ(fmi_function_name(static_cast<std::uint32_t>(FmiFunction::fmi3GetFloat64)), "fmi3GetFloat64");
  EXPECT_STREQ(fmi_function_name(9999), "?");
  char unterminated[4] = {'a', 'b', 'c', 'd'};
  EXPECT_EQ(call_record::read_bounded(unterminated, sizeof unterminated), "abcd");
}

}  // namespace
}  // namespace lsdae
