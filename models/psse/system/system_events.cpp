// models/psse/system/system_events.cpp -- System: events (system.h, "Events").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "psse/core/limiter.h"
#include "psse/system/event_solver.h"
#include "psse/system/system_impl.h"

namespace lsdae::psse {

namespace {
constexpr double kHysteresis = 1e-8;
constexpr int kMaxRounds = 20;
// Bounced releases. A below-switch (a load's low-voltage switch, limiter.h)
// that an event releases and that the values then put back below within the
// same event has no consistent mode there: released, its own voltage falls
// below the threshold (a constant-power load near the nose of its P-V curve:
// Newton's solution with the load at constant power lies on the lower branch);
// below, its voltage rises above it. The rounds would alternate until
// kMaxRounds and leave the modes of the last round, inconsistent with the
// values (ACTIVSg2000, branch 706 out after a fault at bus 4150: the 40xx
// area's loads at constant power at 0.62 p.u., re-engaged at the next event,
// released 1e-6 s later, about 90 times each until IDACalcIC failed). Such a
// switch is held below instead: released only when its value rises
// kReleaseBand (p.u., times max(1, |threshold|)) above the value at which its
// release failed. The hold is the indicator's shift (SlotHot::shift()), so
// the importer locates the release where the shifted indicator reaches zero,
// and it ends when the value falls below the threshold.
constexpr double kReleaseBand = 0.02;
// The same across events. A release can settle within the event (the values
// at the new point sit within kHysteresis of the threshold: the mode stays)
// and the switch cross back below right after the restart, then be released
// again, and so on at one instant: each of the load's two characteristics
// drives its voltage back across the breakpoint, a sliding point with no
// consistent mode (ACTIVSg2000, branch 4191-4184-1 out after a fault at bus
// 4191: load 4103's switch engaged and released at t = 1.10307321 s more than
// 500 times each, its indicator within 1e-13 of zero, until the importer gave
// up on more than 1000 events in a row). A below-switch put back below within
// kBounceWindow s (times max(1, |t|)) of its release at an earlier event is
// held as one bounced within an event: a load does not switch twice within a
// microsecond by its dynamics (limits.release_delay, the deferral of a
// release, is 1e-6 s too).
constexpr double kBounceWindow = 1e-6;

// The head of a limiter log line (system.h, "Events"), the time and the limiter:
//   t = 1.0523 s: ESAC1A at bus 102 id '1': limiter VR (exc[102_1].VR) <what happened>
std::string limiter_line(double t, const SlotState& s, std::size_t l, const char* what) {
  const DeclaredLimiter& lim = s.slot->limiters()[l];
  char time[40];
  std::snprintf(time, sizeof time, "t = %.9g s: ", t);
  return time + s.placed.component->describe() + ": limiter " + lim.name + " (" + s.prefix + "." + lim.name + ") " +
         what;
}
// A mode change:  ... engaged: free -> high, indicator -2.1e-09
// the indicator being its value at the point the importer located (<= 0
// where it crossed zero; a jump of the algebraic variables can change a mode
// with it still positive).
std::string limiter_log_line(double t, const SlotState& s, std::size_t l, int from, int to, double indicator) {
  const LimiterKind kind = s.slot->limiters()[l].kind;
  char tail[160];
  std::snprintf(tail, sizeof tail, "%s: %s -> %s, indicator %.6g", to != kModeFree ? "engaged" : "released",
                limiter_mode_name(kind, from), limiter_mode_name(kind, to), indicator);
  return limiter_line(t, s, l, tail);
}
// A bounced release (kReleaseBand):
//   ... held below: released at 0.7037, below again with it released (0.6976); released when above 0.7237
std::string limiter_hold_line(double t, const SlotState& s, std::size_t l, double released_at, const LimiterRecord& r,
                              double release_above) {
  char tail[200];
  std::snprintf(tail, sizeof tail,
                "held below: released at %.6g, below again with it released (%.6g); released when above %.6g",
                released_at, r.u, release_above);
  return limiter_line(t, s, l, tail);
}
}  // namespace

kit::DiscreteUpdate System::Impl::update_discrete(kit::Context& c) {
  double* v = c.v;
  const double t = c.time;
  kit::DiscreteUpdate u;
  disturbances.resolve(v, active);
  // Modes at the start, to count the limiters whose mode this event changes:
  // one entry per limiter, the slots with limiters in order (indicator_slots),
  // in a vector kept between events (no allocation per event and slot).
  std::vector<int>& before = event_before;
  before.clear();
  for (std::size_t k : indicator_slots) {
    const SlotHot& h = work[k];
    const ValueRef* mode_vr = h.mode_vr();
    for (std::uint32_t l = 0; l < h.limiters(); ++l) before.push_back(limiter_mode_value(v[mode_vr[l]]));
  }
  // The limiter log, when asked for (limits.log, or the importer's logLimiters
  // category): the indicators at the located point, in the order of `before`.
  // Nothing otherwise.
  const kit::LogSink* log = c.log != nullptr && (v[log_limiters_vr] != 0.0 || c.log->enabled(kLogLimiters))
                                ? c.log
                                : nullptr;
  std::vector<double> located;
  if (log != nullptr)
    for (std::size_t k : indicator_slots)
      for (ValueRef ind : slots[k].ind_vr) located.push_back(v[ind]);
  // The holds of below-switches held after a bounced release: their shifts
  // (the shifts FMI asks for at a switching point are below 2e-8).
  std::vector<double>& hold = event_hold;
  std::vector<double>& released = event_released;
  hold.clear();
  for (std::size_t k : indicator_slots) {
    const SlotHot& h = work[k];
    for (std::uint32_t l = 0; l < h.limiters(); ++l)
      hold.push_back(h.kind(l) == LimiterKind::below && h.mode()[l] == kModeBelow && h.shift()[l] >= kReleaseBand
                         ? h.shift()[l]
                         : 0.0);
  }
  released.assign(hold.size(), std::nan(""));
  std::vector<unsigned char>& fresh = event_hold_fresh;  // held in this event
  fresh.assign(hold.size(), 0);
  // A below-switch going below: if released in this event, or within
  // kBounceWindow at an earlier one, it is held (kReleaseBand) above the value
  // of that release; the release is then spent.
  auto hold_if_bounced = [&](std::size_t k, std::size_t l, std::size_t at, const LimiterRecord& r) {
    double from = released[at];
    if (std::isnan(from) && t - release_time[at] <= kBounceWindow * std::max(1.0, std::fabs(t))) from = release_value[at];
    if (std::isnan(from)) return;
    hold[at] = std::max(hold[at], from - r.lo + kReleaseBand * std::max(1.0, std::fabs(r.lo)));
    fresh[at] = 1;
    if (log != nullptr) log->message(kLogLimiters, limiter_hold_line(t, slots[k], l, from, r, r.lo + hold[at]));
    released[at] = std::nan("");
    release_time[at] = -std::numeric_limits<double>::infinity();
  };
  auto note_release = [&](std::size_t at, double u_released) {
    released[at] = u_released;
    release_time[at] = t;
    release_value[at] = u_released;
  };

  auto set_mode = [&](std::size_t k, std::size_t l, int mode, const LimiterRecord& r) {
    const SlotState& s = slots[k];
    v[s.mode_vr[l]] = mode;
    work[k].mode()[l] = mode;
    const DeclaredLimiter& lim = s.slot->limiters()[l];
    if (lim.kind == LimiterKind::non_windup && mode != kModeFree) {
      v[s.x_vr[static_cast<std::size_t>(lim.state)]] = limiter_held_value(mode, r);
      u.values_of_states_changed = true;
    }
  };

  // (2) limiters whose indicator crossed zero since the last event: their
  // records are those of the point the importer located (compute() ran there).
  if (!first_update) {
    std::size_t at = 0;  // index into hold and released
    for (std::size_t k : indicator_slots) {
      const SlotHot& h = work[k];
      const LimiterRecord* record = h.record();
      const int* mode = h.mode();
      const ValueRef* ind_vr = h.ind_vr();
      const double* last = h.last();
      for (std::uint32_t l = 0; l < h.limiters(); ++l, ++at) {
        if (!record[l].written) continue;
        const double now = v[ind_vr[l]];
        if (!(last[l] > 0.0 && now <= 0.0)) continue;
        const int to = limiter_transition(h.kind(l), mode[l], record[l]);
        if (h.kind(l) == LimiterKind::below && mode[l] == kModeBelow && to != kModeBelow) note_release(at, record[l].u);
        if (h.kind(l) == LimiterKind::below && mode[l] != kModeBelow && to == kModeBelow)
          hold_if_bounced(k, l, at, record[l]);
        set_mode(k, l, to, record[l]);
      }
    }
  }
  first_update = false;

  // (1) the disturbances due; a generator trip freezes its unit.
  disturbances.set_flags(t, active, v);
  for (std::size_t k = 0; k < active.gen_trips.size(); ++k) {
    if (!disturbances.gen_tripped(v, k)) continue;
    const GeneratorRecord& gen = net.generators[active.gen_trips[k].generator];
    // Its machine and controllers (G:), or the constant-current source that holds a generator
    // without a machine record (S:, case_builder.h).
    const std::string unit = "G:" + std::to_string(gen.bus) + ":" + gen.id;
    const std::string held = "S:" + std::to_string(gen.bus) + ":" + gen.id;
    bool found = false;
    for (std::size_t slot_index = 0; slot_index < slots.size(); ++slot_index) {
      SlotState& s = slots[slot_index];
      if (s.placed.unit != unit && s.placed.unit != held) continue;
      found = true;
      if (work[slot_index].frozen) continue;
      work[slot_index].frozen = true;
      s.z_frozen.resize(s.z_vr.size());
      for (std::size_t j = 0; j < s.z_vr.size(); ++j) s.z_frozen[j] = v[s.z_vr[j]];
    }
    if (!found)
      throw std::invalid_argument("gentrip[" + std::to_string(k + 1) + "]: generator " + std::to_string(gen.bus) +
                                  " '" + gen.id + "' has no dynamic model in this case → choose one of the machines");
  }

  update_islands(v);

  // (3) the algebraic variables at the new point, and the modes they call for.
  // When Newton fails (constant-power loads at a faulted bus), it tries once
  // more with every switch below its threshold (loads as admittances, which a
  // network can always carry) and lets the values decide from there.
  std::vector<double>& solution = event_work;  // the event solve's point
  const double deferral = v[release_delay_vr];  // s (relative to max(1, |t|)); 0: none
  const bool release_now = !(deferral > 0.0) || (pending_release && t >= *pending_release - 1e-12);
  pending_release.reset();
  bool solved = false, tried_below = false, deferred = false, settled = false;
  for (int round = 0; round < kMaxRounds; ++round) {
    solved = solver->solve(v, value_count, t, solution);
    if (!solved && !tried_below) {
      tried_below = true;
      bool any = false;
      for (std::size_t k : indicator_slots) {
        const SlotHot& h = work[k];
        for (std::uint32_t l = 0; l < h.limiters(); ++l)
          if (h.kind(l) == LimiterKind::below && h.mode()[l] != kModeBelow) {
            set_mode(k, l, kModeBelow, h.record()[l]);
            any = true;
          }
      }
      if (any) continue;
    }
    if (!solved) break;
    // The solve's last evaluation was at `solution` with these modes
    // (event_solver.h, contract): the slots' limiter records are this
    // point's, as a compute() here would leave them, bit for bit.
    bool changed = false;
    std::size_t at = 0;  // index into hold and released
    for (std::size_t k : indicator_slots) {
      const SlotHot& h = work[k];
      const LimiterRecord* record = h.record();
      const int* mode = h.mode();
      for (std::uint32_t l = 0; l < h.limiters(); ++l, ++at) {
        if (!record[l].written) continue;
        const LimiterKind kind = h.kind(l);
        const int m = limiter_mode_by_value(kind, mode[l], record[l], kHysteresis);
        if (m == mode[l]) continue;
        if (kind == LimiterKind::below) {
          const LimiterRecord& r = record[l];
          if (m == kModeFree && r.u <= r.lo + hold[at]) continue;  // held (kReleaseBand)
          // Released in this event (or just before), and below again with it released: held.
          if (m == kModeBelow) hold_if_bounced(k, l, at, r);
          if (m == kModeFree && !release_now) {
            deferred = true;  // released at the deferred event (system.h)
            continue;
          }
          if (m == kModeFree) note_release(at, r.u);
        }
        set_mode(k, l, m, record[l]);
        changed = true;
      }
    }
    if (!changed) {
      settled = true;
      break;
    }
  }
  last_event_solve_converged = solved;
  // The point solved with the final modes: the importer's guess for the restart.
  if (solved && settled) solver->publish(solution, v);
  // The indicators after the event: the reference for the next crossing.
  // A mode whose indicator is <= 0 here sits at its switching point (a gate
  // whose two inputs are equal, a non-windup state just released at its
  // limit: exactly 0; a mode kept within the margin mode_by_value keeps modes
  // by, m = kHysteresis * max(1, |threshold|), limiter_margin): its indicator
  // is shifted by m - z, so that the FMU leaves Event Mode with z = m > 0
  // (FMI 3.0 3.1.1: z != 0 after Event Mode, "by shifting z_j with a small
  // value"), the domain of the mode that holds; the mode then holds until z
  // falls m below this point. Without it the indicator stayed at 0 or
  // -1e-16, an importer saw its next crossing as no change of domain, and
  // the mode held on the wrong side (GAST's gate passing the larger input by
  // up to 0.05 p.u. in PsseGrid_GAST_fault). The window is (-2m, 0]: a mode
  // kept within its margin lies in it (with the unscaled 1e-8 an exciter's
  // ceiling near 6 p.u., kept 3e-8 inside, was left negative).
  //
  // When the modes settled, the solve's last evaluation ran at `solution`
  // with these modes, and nothing has changed either since (publish() only
  // reads `solution`; compute() reads no value it writes): the slots' records
  // are those a compute() here would leave, bit for bit, so it is run only
  // where the point or a mode differs (no solution, or the rounds ended on a
  // change). The indicators are written below, into `point`, for every slot
  // with limiters: none that compute() would write there is left unwritten.
  //
  // A below-switch held in this event (kReleaseBand), and one held before
  // whose value is at or above its threshold, keeps its hold as its shift: its
  // indicator is positive until the value exceeds the threshold by the hold.
  // One held before whose value fell below the threshold is consistently
  // below: its hold ends. (The hold made at a sliding point stays whatever
  // side of the threshold the event solve ends on: it ends within its
  // tolerance of it, 4e-8 p.u. below on ACTIVSg2000's load 4103, while IDA's
  // point lies above.)
  double* point = solved ? solution.data() : v;
  if (!settled) compute(point, t, true);
  std::size_t held_at = 0;  // index into hold
  for (std::size_t k : indicator_slots) {
    SlotHot& h = work[k];
    double* shift = h.shift();
    double* last = h.last();
    const LimiterRecord* record = h.record();
    const int* mode = h.mode();
    const ValueRef* ind_vr = h.ind_vr();
    for (std::uint32_t l = 0; l < h.limiters(); ++l, ++held_at) {
      double z = 1.0;
      shift[l] = 0.0;
      if (record[l].written) {
        z = limiter_indicator(h.kind(l), mode[l], record[l]);
        if (hold[held_at] > 0.0 && mode[l] == kModeBelow && (fresh[held_at] != 0 || record[l].u >= record[l].lo))
          shift[l] = hold[held_at], z += shift[l];
        const double m = limiter_margin(h.kind(l), mode[l], record[l], kHysteresis);
        if (z <= 0.0 && z > -2.0 * m) shift[l] += m - z, z = m;
      }
      last[l] = z;
      point[ind_vr[l]] = z;
    }
    h.note_shifts();
  }
  double events = v[events_vr];
  std::size_t at = 0;  // index into before and located
  for (std::size_t k : indicator_slots)
    for (std::uint32_t l = 0; l < work[k].limiters(); ++l, ++at) {
      const int now = limiter_mode_value(v[work[k].mode_vr()[l]]);
      if (now == before[at]) continue;
      events += 1.0;
      if (log != nullptr) log->message(kLogLimiters, limiter_log_line(t, slots[k], l, before[at], now, located[at]));
    }
  v[events_vr] = events;
  u.next_event_time = disturbances.next_event(t, active);
  if (deferred) {
    pending_release = t + deferral * std::max(1.0, std::fabs(t));
    if (!u.next_event_time || *pending_release < *u.next_event_time) u.next_event_time = pending_release;
  }
  return u;
}

}  // namespace lsdae::psse
