// runtime/system/composed_description.h -- what a resolved composition
// declares (composition.h, "Residuals" 1-3): the system's LS-DAE manifest
// (its algebraic variables and one residual group per row lsdae computes, or
// per component residual group mapped to the system's references) and its
// model description (FMI 3.0, the ModelExchange flags or-ed over the
// components, the DefaultExperiment, the derivatives and outputs, and the
// inputs the system feeds made unknowns or locals). Private to
// runtime/system/.
//
// Contract: called once by compose() after every check has passed, on a
// Composition whose components, globals, states, connections and couplings
// are complete; it appends the row variables (after the components'
// variables, in residual order) and never refuses. Cost: linear in the
// variables and the dependencies of the rows.
#ifndef LSDAE_RUNTIME_SYSTEM_COMPOSED_DESCRIPTION_H
#define LSDAE_RUNTIME_SYSTEM_COMPOSED_DESCRIPTION_H

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lsdae/system_description.h"
#include "system/composition.h"

namespace lsdae::system {

// What resolving the connections found, by component (Composer's own state).
struct Resolution {
  // Its inputs driven by the system, with what drives each.
  const std::vector<std::unordered_map<ValueReference, std::string>>& driven;
  // Its inputs fed by a continuous connection or coupling: algebraic unknowns.
  const std::vector<std::unordered_set<ValueReference>>& unknown_inputs;
  // The system value references of its x, z and unknown inputs.
  const std::vector<std::vector<ValueReference>>& component_unknowns;
};

// Component k's FMU value reference `local` as a system value reference, or
// none when the FMU does not declare it.
std::optional<ValueReference> map_or_drop(const Composition& s, std::uint32_t k, ValueReference local);

// Writes s.manifest and s.md (above).
void write_description(Composition& s, const SystemDescription& d, const Resolution& r);

}  // namespace lsdae::system

#endif  // LSDAE_RUNTIME_SYSTEM_COMPOSED_DESCRIPTION_H
