// models/kit/description.h -- the complete, resolved description of one FMU
// variant: what modelDescription.xml and the LS-DAE manifest say, and what an
// instance needs to serve the fmi3 calls.
//
// describe() runs the model's declare() against a recording Builder, then adds
// the kit's own variables (time at value reference 0, the DAE enable switch
// for manifests that need one) and checks the declarations for consistency.
// It throws std::invalid_argument naming the variable and the rule broken.
#ifndef LSDAE_MODELS_KIT_DESCRIPTION_H
#define LSDAE_MODELS_KIT_DESCRIPTION_H

#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kit/model.h"

namespace lsdae::kit {

enum class ManifestShape { none, A, B };

struct Description {
  std::string model_name;
  std::string description;
  DefaultExperiment experiment;
  Form form = Form::ode;
  ManifestShape manifest = ManifestShape::none;
  // Config key implicit_form=openmodelica (fully implicit form, shape B only):
  // the manifest is written as OpenModelica's DAE export writes it -- no
  // <ContinuousStateDerivative>, and every der(x) in a dependency list is
  // replaced by its state x, which then stands for both x and der(x). The
  // binary is the same; the importer still writes der(x) with fmi3SetFloat64.
  bool openmodelica_form = false;
  ValueRef dae_switch = kNoValueRef;  // Boolean structural parameter, if any
  std::vector<Variable> variables;    // variables[vr].value_reference == vr
  std::vector<ValueRef> states;       // in ContinuousStateDerivative order
  std::vector<ValueRef> derivatives;  // derivatives[i] = der(states[i])
  std::vector<ValueRef> algebraic;    // manifest AlgebraicVariables
  std::vector<ValueRef> outputs;
  std::vector<ValueRef> event_indicators;
  std::vector<ResidualGroup> residual_groups;
  std::map<ValueRef, std::vector<Dependency>> dae_dependencies;
  std::map<ValueRef, std::vector<Dependency>> ode_dependencies;
  bool provides_partials = false;
  bool has_time_events = false;
  // The model's own log categories (Builder::log_category): name, description.
  std::vector<std::pair<std::string, std::string>> log_categories;

  // Clocks (FMI 3.0 only; instance_clocks.cpp): every Clock variable in
  // declaration order, and every clocked state (a variable with `previous`).
  std::vector<ValueRef> clocks;
  std::vector<ValueRef> clocked_states;
  // Config key clocked_access: `strict` (the default) refuses fmi3Get/Set of
  // a clocked variable outside Initialization Mode unless one of its clocks
  // is active (FMI 3.0 2.2.6.2); `lenient` answers a get with the value of
  // the last tick, as some exporters do.
  bool lenient_clocked_access = false;
  // Config key free_fault=abort: fmi3FreeInstance (fmi2FreeInstance) frees the
  // instance and then calls abort() (SIGABRT) -- an FMU that crashes at cleanup
  // after a correct simulation (issue 32, a commercial exporter's FMI 2.0 FMU).
  bool abort_when_freed = false;
  // Config directional_cost=N (N >= 1; default 1): every
  // fmi3GetDirectionalDerivative call computes the model's partials anew, N
  // times, as an exporter whose directional derivatives re-evaluate the model
  // per call does (the values are the same; only the cost changes). For
  // --jacobian auto's cost rule (runtime/simulation/jacobian_claims.h).
  long directional_cost = 1;

  // False claims of a variant (claims.h): declared partial derivatives
  // scaled by a factor in fmi3GetDirectionalDerivative.
  struct PartialScale {
    ValueRef unknown = kNoValueRef;  // kNoValueRef: every unknown
    ValueRef known = kNoValueRef;    // kNoValueRef: every known
    double factor = 1.0;
  };
  std::vector<PartialScale> partial_scales;
  // The scales apply at time > this only (claim_partial_scale_after; default: always).
  double partial_scale_after = -std::numeric_limits<double>::infinity();

  // FMI version of the variant (Config key fmi=2|3, default 3). Version 2
  // needs manifest=none (FMI 2.0 Model Exchange has no DAE mode).
  int fmi_version = 3;
  // Builder::alias: alias value reference -> original (written as one value
  // reference in FMI 2.0, two variables in FMI 3.0).
  std::map<ValueRef, ValueRef> aliases;
  // Najafi's constraint extension (FMI 2.0 only). What the model declared:
  std::size_t max_constraints = 0;  // 0: no constraints
  bool constraint_jacobian = false;
  // What the variant exports (Config keys provides_constraints=
  // false|true|withJacobian, provides_projection=true|false,
  // provides_projection_step=true|false: each can only leave out what the
  // model has; the defaults export everything it has). The projection
  // functions need the model's Jacobian, exported or not.
  enum class Constraints { none, values, with_jacobian };
  Constraints provides_constraints = Constraints::none;
  bool provides_projection = false;
  bool provides_projection_step = false;
  // Any of the constraint functions is exported (then maxNumberOfConstraints
  // is written and fmi2GetNumberOfConstraints answers).
  bool exports_constraint_functions() const {
    return provides_constraints != Constraints::none || provides_projection || provides_projection_step;
  }
  // Config key fmu_state (instance_state.cpp): `none` (the default), `get_set`
  // (canGetAndSetFMUState: fmi3GetFMUState, fmi3SetFMUState,
  // fmi3FreeFMUState) or `serialize` (also canSerializeFMUState:
  // fmi3SerializedFMUStateSize, fmi3SerializeFMUState,
  // fmi3DeserializeFMUState). FMI 2.0 variants: the fmi2 equivalents.
  enum class FmuState { none, get_set, serialize };
  FmuState fmu_state = FmuState::none;
  bool can_get_and_set_state() const { return fmu_state != FmuState::none; }
  bool can_serialize_state() const { return fmu_state == FmuState::serialize; }

  Config config;
  std::string instantiation_token;

  // Layout variations of a variant (Config keys, read by describe(); the XML
  // side is applied by layout.h, the binary side by Instance):
  //   value_references=scattered  the XML and the fmi3 functions use
  //                               external_vr(vr) instead of vr: large,
  //                               non-contiguous and not in declaration order.
  //   variable_order=reversed     ModelVariables listed last-declared first.
  //   manifest_outputs=last       the manifest's <Output>s after its
  //                               <Residual>s (draft 0.1 schema order).
  bool scattered_value_references = false;
  // The value reference importers see for the kit's `vr` (== vr unless scattered).
  ValueRef external_vr(ValueRef vr) const;
  // The kit's value reference of an importer's `external` one; kNoValueRef
  // when no variable has it.
  ValueRef internal_vr(ValueRef external) const;

  // DAE mode is on from the start (shape A without a switch).
  bool always_dae() const { return manifest != ManifestShape::none && dae_switch == kNoValueRef; }
  // Variables the importer may write in DAE mode.
  bool settable_in_dae_mode(ValueRef vr) const;
};

// Builds the description of `model` for `config`. The model must be freshly
// constructed from the same config.
Description describe(Model& model, const Config& config);

// "key=value" lines, one per key, sorted; parse_config reverses it and throws
// std::invalid_argument naming the line for anything else.
std::string format_config(const Config& config);
Config parse_config(const std::string& text, const std::string& where);

}  // namespace lsdae::kit

#endif  // LSDAE_MODELS_KIT_DESCRIPTION_H
