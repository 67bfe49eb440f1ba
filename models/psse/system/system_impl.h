// models/psse/system/system_impl.h -- the inside of System (system.h):
// every component's slot with its values, bindings and value references,
// the network's variables, the event solver. Internal to models/psse/system.
#ifndef LSDAE_MODELS_PSSE_SYSTEM_SYSTEM_IMPL_H
#define LSDAE_MODELS_PSSE_SYSTEM_SYSTEM_IMPL_H

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "psse/core/slot.h"
#include "psse/system/disturbance_runtime.h"
#include "psse/system/system.h"

namespace lsdae::psse {

using kit::ValueRef;
inline constexpr ValueRef kNoRef = kit::kNoValueRef;
// The FMI log category of the limiter log (system_events.cpp).
inline constexpr const char* kLogLimiters = "logLimiters";

// Where an input's value comes from.
struct InputSource {
  int slot = -1;      // a variable of that component (slot index) ...
  Var variable;
  int constant = -1;  // ... or a held constant (index into System::Impl::constants)
};

struct HeldConstant {
  std::string name, description, signal;
  double value = 0;
  bool set = false;
  ValueRef vr = kNoRef;
};

// What compute() and partials() read of a slot at every evaluation and
// never change, in one block (one or two cache lines instead of one per
// vector; filled at the end of declare()): the value references of its
// knowns in frame order (x, z, u, the bus's Vr and Vi), parameters, modes,
// derivatives, fully implicit residuals (rx; none in the semi-explicit
// form), algebraic residuals, event indicators, then each limiter's kind.
struct SlotRefs {
  std::vector<ValueRef> ref;
  std::uint32_t known = 0, param = 0, limiter = 0, states = 0, rx = 0, algebraics = 0;
  const ValueRef* known_vr() const { return ref.data(); }
  const ValueRef* param_vr() const { return known_vr() + known; }
  const ValueRef* mode_vr() const { return param_vr() + param; }
  const ValueRef* der_vr() const { return mode_vr() + limiter; }
  const ValueRef* rx_vr() const { return der_vr() + states; }
  const ValueRef* g_vr() const { return rx_vr() + rx; }
  const ValueRef* ind_vr() const { return g_vr() + algebraics; }
  LimiterKind kind(std::size_t l) const { return static_cast<LimiterKind>(ind_vr()[limiter + l]); }
};

// The members compute() and partials() read at every evaluation come first
// (the refs, the framework slot, the flags, the work space: the first four
// cache lines of a slot's entry instead of lines spread over its 800 bytes);
// a layout only.
struct SlotState {
  SlotRefs refs;  // first: read with the work space below at every evaluation
  std::unique_ptr<ComponentSlot> slot;
  bool network_device = false;  // InitStage::network_device: its injection enters the bus
  bool frozen = false;
  // Whether some indicator_shift is not +0.0 (note_shifts()): compute()
  // reads the shifts only then, and adds the literal +0.0 otherwise (the
  // same bits), sparing a cache miss per slot on a vector that is +0.0
  // almost always.
  bool shifted = false;
  // Work space.
  std::vector<double> known, out;
  std::vector<double> param;
  std::vector<int> mode;
  std::vector<LimiterRecord> record;
  PlacedComponent placed;
  std::vector<double> jac;
  std::vector<LimiterRecord> tangent;
  std::vector<char> u_known;    // the input is a state or algebraic variable (a known of the DAE)
  // Added to each limiter's indicator until the next event: FMI 3.0 3.1.1
  // asks the FMU to leave Event Mode with every indicator != 0 ("for example,
  // by shifting z_j with a small value"); set by update_discrete where the
  // mode kept or chosen has an indicator <= 0 (at its switching point).
  std::vector<double> indicator_shift;
  void note_shifts() {
    shifted = false;
    for (double d : indicator_shift) shifted = shifted || d != 0.0 || std::signbit(d);
  }
  std::vector<double> last_indicator;
  std::vector<double> z_frozen;
  std::string prefix;      // gen[102_1]
  std::vector<double> x0, z0, p0;
  std::vector<int> mode0;
  std::vector<InputSource> input;
  // Value references, after declare().
  std::vector<ValueRef> x_vr, der_vr, rx_vr, z_vr, g_vr, u_vr, p_vr, mode_vr, ind_vr;
};

class EventSolver;

struct System::Impl {
  Impl(SystemInput input, kit::Form form);
  ~Impl();

  kit::Form form;
  Network net;
  std::vector<Complex> v0;
  std::vector<SlotState> slots;
  std::vector<HeldConstant> constants;
  DisturbanceRuntime disturbances;
  ActiveDisturbances active;
  InitReport report;
  std::vector<ValueRef> vr, vi, res_re, res_im;
  ValueRef events_vr = kNoRef;
  ValueRef dead_buses_vr = kNoRef, lost_load_vr = kNoRef;  // islands.dead_buses, islands.lost_load
  ValueRef release_delay_vr = kNoRef;                       // limits.release_delay
  ValueRef log_limiters_vr = kNoRef;                        // limits.log
  std::vector<bool> bus_dead;  // in an island without a source (islands.h)
  // A dead bus is grounded where its diagonal may change: it has devices, or a branch a trip opens ends there.
  std::vector<bool> bus_groundable;
  std::vector<std::vector<std::size_t>> devices_at;  // network devices per bus
  std::vector<std::size_t> indicator_slots;          // slots with limiters (event indicators), in order
  std::unique_ptr<EventSolver> solver;
  bool declared = false;
  bool hold_initial_limits = false;  // SystemInput::hold_initial_limits
  std::vector<double> scratch_re, scratch_im;
  // Where the slots' param and mode were last read from (parameters_held).
  const double* held_v = nullptr;
  std::uint64_t held_epoch = 0;
  std::vector<double> event_work, event_good;
  std::size_t value_count = 0;   // variables of the FMU (value references 0 .. value_count - 1)
  bool first_update = true;
  bool last_event_solve_converged = true;
  std::optional<double> pending_release;  // a deferred release of below-switches

  // system_build.cpp
  void bind();
  void initialize();
  void check_rest();
  // system_eval.cpp
  // A slot's knowns read from the values, and with `held` false its
  // parameters and limiter modes too.
  void gather(SlotState& s, const double* v, bool held) const;
  // Whether the slots' parameters and modes were read from `v` at `epoch`
  // (kit::Context::discrete_epoch; 0: unknown, read them).
  bool holds_parameters(const double* v, std::uint64_t epoch) const {
    return epoch != 0 && epoch == held_epoch && v == held_v;
  }
  // holds_parameters(), and records `v` and `epoch` as where they are read now.
  bool parameters_held(const double* v, std::uint64_t epoch);
  void network_residuals(const double* v, double* res_re_out, double* res_im_out) const;
  void evaluate_slot(SlotState& s, const double* v, double time, bool held);
  // epoch: kit::Context::discrete_epoch of `v` (0 for any other array: the
  // event solver's copies).
  void compute(double* v, double time, bool write_indicators, std::uint64_t epoch = 0);
  // The event indicators alone, bitwise those compute() writes at this point:
  // each slot with limiters evaluated as compute() evaluates it (a slot's
  // indicators read only its own knowns: states, algebraics, inputs bound to
  // other components' states or algebraic variables, its bus voltage; never
  // a value compute() calculates), its indicators written by the same
  // write_slot_indicators(). Only where the slots' parameters and modes were
  // read from `v` at `epoch` by the last compute() or partials()
  // (holds_parameters); returns false and does nothing
  // otherwise (the caller runs compute()). Cost: the slots with limiters
  // only, no network, no machines (ACTIVSg2000 with every model: 2 446 of
  // its 2 780 components, the loads' switches included: about 7/8 of a
  // compute(); docs/performance/psse-activsg2000-evaluation.md, "Indicators alone").
  bool indicators(double* v, double time, std::uint64_t epoch);
  // The indicators of slot `s` from its last evaluation.
  static void write_slot_indicators(const SlotState& s, double* v);
  void partials(const double* v, double time, kit::PartialSink& sink, std::uint64_t epoch = 0);
  // system_events.cpp
  kit::DiscreteUpdate update_discrete(kit::Context& c);
  // system_islands.cpp: after the disturbances switched, de-energizes the
  // islands left without a source (islands.h).
  void update_islands(double* v, double time);
  // system_declare.cpp
  void declare(kit::Builder& b);
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_SYSTEM_SYSTEM_IMPL_H
