// runtime/system/composite_plan.h -- CompositeInstance::Plan: one list of
// system value references split by component (composite_instance.h,
// "set/get of values"), made by plan_for() on the list's first use and kept
// (composite_values.cpp). Private to runtime/system/.
//
// Invariants: for each component c, parts[c].local and parts[c].slot have
// one entry per value c is asked for, and parts[c].buffer their size;
// `slots` holds the requested values in [0, key.size()) and the rows'
// operands after them; `called` are the components with something to get or
// set, `tasks` (get) those plus the ones whose f the rows read, ascending.
#ifndef LSDAE_RUNTIME_SYSTEM_COMPOSITE_PLAN_H
#define LSDAE_RUNTIME_SYSTEM_COMPOSITE_PLAN_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "system/composite_instance.h"

namespace lsdae::system {

// One list of system value references, split by component.
struct CompositeInstance::Plan {
  std::vector<ValueReference> key;
  bool for_set = false;
  struct Part {
    std::vector<ValueReference> local;  // the component's value references
    std::vector<std::size_t> slot;      // where each value goes in `slots` (get) / comes from in values (set)
    std::vector<double> buffer;
  };
  std::vector<Part> parts;             // per component
  std::vector<std::uint32_t> called;   // components with something to get or set
  std::vector<double> slots;           // get: [0, n) the requested values, then the rows' operands
  struct Row {
    Global::Kind kind;
    std::size_t position;  // in the caller's values
    std::size_t a = 0, b = 0;  // slots (connection: to, from; potential: p_1, p_k; flows: [a, a + b) of flow_slots)
    double factor = 1.0, offset = 0.0;
    std::size_t state = 0;
  };
  std::vector<Row> rows;
  std::vector<std::size_t> flow_slots;
  std::vector<std::pair<std::size_t, std::size_t>> kept;  // (position, system state): ẋ of a component computing it
  std::vector<std::uint32_t> need_f;                      // components whose f the rows read
  std::vector<std::uint32_t> tasks;                       // get: `called` ∪ `need_f`, ascending
  std::vector<std::uint8_t> reads_f;                      // per component: in need_f
  WorkEstimate work;                                      // the components' time per get
};

}  // namespace lsdae::system

#endif  // LSDAE_RUNTIME_SYSTEM_COMPOSITE_PLAN_H
