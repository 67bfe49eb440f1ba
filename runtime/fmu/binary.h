// runtime/fmu/binary.h -- an FMU's loaded shared library, whatever its FMI
// version: what Fmu asks of it (instances, and what it exports).
//
// Implemented once per FMI version (fmi3/library.h, fmi2/library.h); made by
// the loader (loader.h), the one place that knows both versions. Fmu keeps
// it, and every instance it makes keeps it loaded (dlclose when the last of
// them goes).
#ifndef LSDAE_RUNTIME_FMU_BINARY_H
#define LSDAE_RUNTIME_FMU_BINARY_H

#include <memory>
#include <string>
#include <vector>

#include "fmu/instance_context.h"
#include "lsdae/instance.h"
#include "lsdae/model_description.h"

namespace lsdae {

class FmuBinary {
 public:
  virtual ~FmuBinary() = default;
  // A new instance of this binary's FMI version (its constructor calls the
  // FMU's instantiate function). Error(fmu_call) when the FMU refuses.
  virtual std::unique_ptr<Instance> instantiate(InstanceContext context, const std::string& name) const = 0;
  // Whether the binary exports the directional-derivative function.
  virtual bool exports_directional_derivative() const = 0;
  // FMI 3.0: Configuration Mode and SetBoolean, needed for the DAE switch.
  virtual bool can_set_dae_switch() const = 0;
  // Optional functions the binary does not export (for a debug log line).
  virtual const std::vector<std::string>& missing_optional_functions() const = 0;
  // Warnings about declared capabilities the binary cannot honour, e.g.
  // "providesConstraints=\"true\" but ... fmi2Constraint is missing".
  virtual std::vector<std::string> capability_warnings(const ModelDescription&) const { return {}; }
};

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_FMU_BINARY_H
