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
#include "psse/system/slot_work.h"
#include "psse/system/system.h"

namespace lsdae::psse {

using kit::ValueRef;
inline constexpr ValueRef kNoRef = kit::kNoValueRef;
// A limiter mode stored as a Float64 variable, as an int: std::lround's
// value, without its call for the three values a mode has.
inline int limiter_mode_value(double m) {
  if (m == 0.0) return 0;
  if (m == 1.0) return 1;
  if (m == -1.0) return -1;
  return static_cast<int>(std::lround(m));
}

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

// A slot's declaration, initial values, value references and the state its
// events keep. What every evaluation reads and writes of a slot lies in
// System::Impl::work instead (slot_work.h: a dense line per slot and its
// block in one arena, in slot order), at the same index.
struct SlotState {
  std::unique_ptr<ComponentSlot> slot;
  bool network_device = false;  // InitStage::network_device: its injection enters the bus
  PlacedComponent placed;
  std::vector<char> u_known;    // the input is a state or algebraic variable (a known of the DAE)
  std::vector<double> z_frozen;
  std::string prefix;      // gen[102_1]
  std::vector<double> x0, z0, p0;
  double p_operating = 0;  // a load's power drawn at the operating point, MW (islands.lost_load)
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
  // What each evaluation reads and writes per slot, at the slots' indices
  // (slot_work.h); laid out by lay_out_work() before the initialization
  // evaluates a slot, filled by initialize() and declare(). Its indicator
  // shifts (SlotHot::shift()) are added to each limiter's indicator until the
  // next event: FMI 3.0 3.1.1 asks the FMU to leave Event Mode with every
  // indicator != 0 ("for example, by shifting z_j with a small value"); set
  // by update_discrete where the mode kept or chosen has an indicator <= 0
  // (at its switching point).
  SlotWork work;
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
  // partials(): one slot's local Jacobian, its limiters' tangents and the Dual
  // work space, shared by the slots in turn (each written before it is read).
  std::vector<double> partial_jac;
  std::vector<LimiterRecord> partial_tangent;
  DualScratch partial_duals;
  // Where the slots' param and mode were last read from (parameters_held).
  const double* held_v = nullptr;
  std::uint64_t held_epoch = 0;
  std::vector<double> event_work;
  std::vector<int> event_before;  // update_discrete: each limiter's mode at the event's start
  // update_discrete, per limiter in the order of event_before: a below-switch's
  // release hold (system_events.cpp, "Bounced releases"), and the tested value
  // at which the event released it (NaN: not released in this event).
  std::vector<double> event_hold, event_released;
  std::vector<unsigned char> event_hold_fresh;  // 1: held in this event
  // Per limiter in the same order, kept across events (sized by declare()):
  // when a below-switch was last released and its tested value then (-inf: not
  // yet), so that a switch put back below within kBounceWindow of its release
  // at a later event is held as one bounced within an event is
  // (system_events.cpp, "Bounced releases").
  std::vector<double> release_time, release_value;
  std::size_t value_count = 0;   // variables of the FMU (value references 0 .. value_count - 1)
  bool first_update = true;
  bool last_event_solve_converged = true;
  std::optional<double> pending_release;  // a deferred release of below-switches

  // system_build.cpp
  void bind();
  // work's layout from the slots' shapes (after bind()).
  void lay_out_work();
  void initialize();
  void check_rest();
  // system_eval.cpp
  // A slot's knowns read from the values, and with `held` false its
  // parameters and limiter modes too.
  static void gather(SlotHot& h, const double* v, bool held);
  // Whether the slots' parameters and modes were read from `v` at `epoch`
  // (kit::Context::discrete_epoch; 0: unknown, read them).
  bool holds_parameters(const double* v, std::uint64_t epoch) const {
    return epoch != 0 && epoch == held_epoch && v == held_v;
  }
  // holds_parameters(), and records `v` and `epoch` as where they are read now.
  bool parameters_held(const double* v, std::uint64_t epoch);
  void network_residuals(const double* v, double* res_re_out, double* res_im_out) const;
  static void evaluate_slot(SlotHot& h, const double* v, double time, bool held, bool limiters_only = false);
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
  static void write_slot_indicators(const SlotHot& h, double* v);
  void partials(const double* v, double time, kit::PartialSink& sink, std::uint64_t epoch = 0);
  // system_events.cpp
  kit::DiscreteUpdate update_discrete(kit::Context& c);
  // system_islands.cpp: after the disturbances switched, de-energizes the
  // islands left without a source (islands.h).
  void update_islands(double* v);
  // system_declare.cpp
  void declare(kit::Builder& b);
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_SYSTEM_SYSTEM_IMPL_H
