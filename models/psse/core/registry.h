// models/psse/core/registry.h -- the dynamic models lsdae implements, by
// PSS/E name, and how to make one from its .dyr record.
//
// Each family keeps its own table (machines/machines.cpp,
// exciters/exciters.cpp, stabilizers/stabilizers.cpp,
// governors/governors.cpp, renewables/renewables.cpp): adding a model is one
// line in its family's table (models/psse/README.md, "How to add a model").
// find_model() searches all of them; a .dyr model not found is
// "unsupported" and named with its bus and id (case_builder.h).
#ifndef LSDAE_MODELS_PSSE_CORE_REGISTRY_H
#define LSDAE_MODELS_PSSE_CORE_REGISTRY_H

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "psse/core/component.h"
#include "psse/core/parameters.h"
#include "psse/io/dyr_record.h"

namespace lsdae::psse {

// What a model needs from the .raw besides its .dyr record.
struct UnitData {
  double system_base = 100.0;  // SBASE, MVA
  double frequency = 60.0;     // BASFRQ, Hz
  double mbase = 100.0;        // the generator's MBASE, MVA (0 for models not at a generator)
  Complex zsource;             // the generator's ZR + j ZX, p.u. on MBASE
};

using Factory = std::unique_ptr<Component> (*)(const DyrRecord& record, const UnitData& unit);

struct ModelEntry {
  const char* name;     // PSS/E model name, upper case
  Role role;
  Factory make;
  std::span<const ParameterSpec> parameters;  // in PSS/E order, for documentation and checks
  const char* summary;  // one line: what it is and what it follows
};

// The family tables (each defined in its family's folder).
std::span<const ModelEntry> machine_models();
std::span<const ModelEntry> exciter_models();
std::span<const ModelEntry> stabilizer_models();
std::span<const ModelEntry> governor_models();
std::span<const ModelEntry> renewable_models();

// The entry for a PSS/E model name (case-insensitive), or nullptr.
const ModelEntry* find_model(std::string_view name);
// Every entry, in family order.
std::vector<const ModelEntry*> all_models();

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CORE_REGISTRY_H
