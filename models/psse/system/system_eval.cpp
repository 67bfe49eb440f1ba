// models/psse/system/system_eval.cpp -- System: residuals, derivatives, event
// indicators and their exact partial derivatives (system.h).
#include <cmath>

#include "psse/core/limiter.h"
#include "psse/system/system_impl.h"

namespace lsdae::psse {

void System::Impl::gather(SlotHot& h, const double* v, bool held) {
  const ValueRef* from = h.known_vr();
  double* known = h.known;
  const std::uint32_t nk = h.known_count();
  for (std::uint32_t k = 0; k < nk; ++k) known[k] = v[from[k]];
  if (held) return;
  from = h.param_vr();
  double* param = h.param();
  for (int k = 0; k < h.shape.parameters; ++k) param[k] = v[from[k]];
  from = h.mode_vr();
  int* mode = h.mode();
  for (int l = 0; l < h.shape.limiters; ++l) mode[l] = limiter_mode_value(v[from[l]]);
}

bool System::Impl::parameters_held(const double* v, std::uint64_t epoch) {
  const bool held = holds_parameters(v, epoch);
  held_v = v;
  held_epoch = epoch;
  return held;
}

void System::Impl::evaluate_slot(SlotHot& h, const double* v, double time, bool held, bool limiters_only) {
  gather(h, v, held);
  LimiterRecord* record = h.record();
  for (int l = 0; l < h.shape.limiters; ++l) record[l].written = false;
  evaluate_component(*h.component, h.shape, h.widen, h.known, h.out(), h.param(), h.mode(), record, time,
                     limiters_only);
}

// res = Y V plus the disturbances' terms (without the devices' currents).
void System::Impl::network_residuals(const double* v, double* re, double* im) const {
  const ComplexCsr& y = net.y;
  for (std::size_t i = 0; i < y.n; ++i) {
    double a = 0, b = 0;
    for (std::size_t p = y.row_start[i]; p < y.row_start[i + 1]; ++p) {
      const std::size_t k = y.column[p];
      const double g = y.value[p].real(), bb = y.value[p].imag(), er = v[vr[k]], ei = v[vi[k]];
      a += g * er - bb * ei;
      b += bb * er + g * ei;
    }
    re[i] = a;
    im[i] = b;
  }
  auto add = [&](std::size_t i, std::size_t k, Complex a) {
    const Complex c = a * Complex(v[vr[k]], v[vi[k]]);
    re[i] += c.real();
    im[i] += c.imag();
  };
  for (std::size_t k = 0; k < active.faults.size(); ++k)
    if (disturbances.fault_on(v, k)) add(active.faults[k].bus, active.faults[k].bus, active.faults[k].admittance);
  for (std::size_t k = 0; k < active.load_steps.size(); ++k)
    if (disturbances.load_stepped(v, k))
      add(active.load_steps[k].bus, active.load_steps[k].bus, active.load_steps[k].admittance);
  for (std::size_t k = 0; k < active.trips.size(); ++k) {
    if (!disturbances.trip_open(v, k)) continue;
    const TripTarget& t = *active.trips[k].target;
    for (std::size_t b : t.branches) {
      const BranchStamp& br = net.branches[b];
      add(br.from, br.from, -br.yff);
      add(br.from, br.to, -br.yft);
      add(br.to, br.from, -br.ytf);
      add(br.to, br.to, -br.ytt);
    }
    if (t.grounded_star != kNone) add(t.grounded_star, t.grounded_star, 1.0);
  }
}

void System::Impl::write_slot_indicators(const SlotHot& h, double* v) {
  const ValueRef* ind_vr = h.ind_vr();
  const double* shift = h.shifted ? h.shift() : nullptr;
  const LimiterRecord* record = h.record();
  const int* mode = h.mode();
  for (int l = 0; l < h.shape.limiters; ++l)
    v[ind_vr[l]] = record[l].written
                       ? limiter_indicator(h.kind(static_cast<std::size_t>(l)), mode[l], record[l]) +
                             (shift != nullptr ? shift[l] : 0.0)
                       : 1.0;
}

bool System::Impl::indicators(double* v, double time, std::uint64_t epoch) {
  if (!holds_parameters(v, epoch)) return false;
  for (std::size_t k : indicator_slots) {
    SlotHot& h = work[k];
    evaluate_slot(h, v, time, true, true);  // the limiters' records alone (component.h)
    write_slot_indicators(h, v);
  }
  return true;
}

void System::Impl::compute(double* v, double time, bool write_indicators, std::uint64_t epoch) {
  const bool held = parameters_held(v, epoch);
  disturbances.resolve(v, active);
  std::vector<double>& re = scratch_re;
  std::vector<double>& im = scratch_im;
  re.resize(net.buses.size());
  im.resize(net.buses.size());
  network_residuals(v, re.data(), im.data());
  const bool implicit = form == kit::Form::fully_implicit;
  const std::size_t n = work.size();
  for (std::size_t k = 0; k < n; ++k) {
    SlotHot& h = work[k];
    evaluate_slot(h, v, time, held);
    const int states = h.shape.states, algebraics = h.shape.algebraics;
    const double* out = h.out();
    const ValueRef* der_vr = h.der_vr();
    if (h.frozen) {
      const std::vector<double>& z_frozen = slots[k].z_frozen;
      for (int i = 0; i < states; ++i) {
        if (implicit) v[h.rx_vr()[i]] = v[der_vr[i]] - 0.0;
        else v[der_vr[i]] = 0.0;
      }
      const ValueRef* z_vr = h.known_vr() + states;
      for (int j = 0; j < algebraics; ++j) v[h.g_vr()[j]] = v[z_vr[j]] - z_frozen[static_cast<std::size_t>(j)];
    } else {
      if (implicit) {
        const ValueRef* rx_vr = h.rx_vr();
        for (int i = 0; i < states; ++i) v[rx_vr[i]] = v[der_vr[i]] - out[i];
      } else {
        for (int i = 0; i < states; ++i) v[der_vr[i]] = out[i];
      }
      const ValueRef* g_vr = h.g_vr();
      for (int j = 0; j < algebraics; ++j) v[g_vr[j]] = out[states + j];
      if (h.network_device) {
        re[h.bus] -= out[states + algebraics];
        im[h.bus] -= out[states + algebraics + 1];
      }
    }
    if (write_indicators) write_slot_indicators(h, v);
  }
  for (std::size_t i = 0; i < bus_dead.size(); ++i)  // a de-energized bus: grounded (islands.h)
    if (bus_dead[i] && bus_groundable[i]) {
      re[i] += v[vr[i]];
      im[i] += v[vi[i]];
    }
  for (std::size_t i = 0; i < net.buses.size(); ++i) {
    v[res_re[i]] = re[i];
    v[res_im[i]] = im[i];
  }
}

namespace {

// d(res_i)/d(V_k) of the term a·V_k: the real 2x2 block [[Re a, −Im a], [Im a, Re a]].
void add_block(kit::PartialSink& sink, ValueRef re, ValueRef im, ValueRef vr, ValueRef vi, Complex a) {
  sink.add(re, vr, a.real());
  sink.add(re, vi, -a.imag());
  sink.add(im, vr, a.imag());
  sink.add(im, vi, a.real());
}

}  // namespace

void System::Impl::partials(const double* v, double time, kit::PartialSink& sink, std::uint64_t epoch) {
  const bool held = parameters_held(v, epoch);
  disturbances.resolve(v, active);
  const ComplexCsr& y = net.y;
  auto block = [&](std::size_t i, std::size_t k, Complex a) { add_block(sink, res_re[i], res_im[i], vr[k], vi[k], a); };
  for (std::size_t i = 0; i < y.n; ++i)
    for (std::size_t p = y.row_start[i]; p < y.row_start[i + 1]; ++p) block(i, y.column[p], y.value[p]);
  for (std::size_t k = 0; k < active.faults.size(); ++k)
    if (disturbances.fault_on(v, k)) block(active.faults[k].bus, active.faults[k].bus, active.faults[k].admittance);
  for (std::size_t k = 0; k < active.load_steps.size(); ++k)
    if (disturbances.load_stepped(v, k))
      block(active.load_steps[k].bus, active.load_steps[k].bus, active.load_steps[k].admittance);
  for (std::size_t k = 0; k < active.trips.size(); ++k) {
    if (!disturbances.trip_open(v, k)) continue;
    const TripTarget& t = *active.trips[k].target;
    for (std::size_t b : t.branches) {
      const BranchStamp& br = net.branches[b];
      block(br.from, br.from, -br.yff);
      block(br.from, br.to, -br.yft);
      block(br.to, br.from, -br.ytf);
      block(br.to, br.to, -br.ytt);
    }
    if (t.grounded_star != kNone) block(t.grounded_star, t.grounded_star, 1.0);
  }
  for (std::size_t i = 0; i < bus_dead.size(); ++i)
    if (bus_dead[i] && bus_groundable[i]) {
      sink.add(res_re[i], vr[i], 1.0);
      sink.add(res_im[i], vi[i], 1.0);
    }
  const bool implicit = form == kit::Form::fully_implicit;
  for (std::size_t k = 0; k < slots.size(); ++k) {
    SlotState& s = slots[k];
    SlotHot& h = work[k];
    const FrameShape& sh = h.shape;
    gather(h, v, held);
    const ValueRef* rx_vr = h.rx_vr();
    const ValueRef* der_vr = h.der_vr();
    const ValueRef* g_vr = h.g_vr();
    if (implicit)
      for (int i = 0; i < sh.states; ++i) sink.add(rx_vr[i], der_vr[i], 1.0);
    if (h.frozen) {
      const ValueRef* z_vr = h.known_vr() + sh.states;
      for (int j = 0; j < sh.algebraics; ++j) sink.add(g_vr[j], z_vr[j], 1.0);
      continue;
    }
    // The limiters this point reaches (compute() ran at this point with these
    // modes, so the flags are the same; a flag left from elsewhere would add
    // nothing either: its tangent was 0), then their tangents only.
    LimiterRecord* record = h.record();
    const int* mode = h.mode();
    for (int l = 0; l < sh.limiters; ++l) record[l].written = false;
    evaluate_component(*h.component, sh, h.widen, h.known, h.out(), h.param(), mode, record, time);
    s.slot->jacobian(h.known, h.param(), mode, time, partial_jac, &partial_tangent, false, &partial_duals);
    const auto no = static_cast<std::size_t>(sh.output_count());
    const std::uint32_t nl = h.limiters();
    const ValueRef* known_vr = h.known_vr();
    const ValueRef* ind_vr = h.ind_vr();
    const int inputs_from = sh.states + sh.algebraics, inputs_to = sh.vr_index();
    const ValueRef res_r = res_re[h.bus], res_i = res_im[h.bus];
    for (int c = 0; c < sh.known_count(); ++c) {
      // a held constant input: a parameter, not a known
      if (c >= inputs_from && c < inputs_to && !s.u_known[static_cast<std::size_t>(c - inputs_from)]) continue;
      const ValueRef kvr = known_vr[c];
      const double* col = partial_jac.data() + static_cast<std::size_t>(c) * no;
      for (int i = 0; i < sh.states; ++i) {
        const double d = col[i];
        if (d == 0.0) continue;
        if (implicit) sink.add(rx_vr[i], kvr, -d);
        else sink.add(der_vr[i], kvr, d);
      }
      for (int j = 0; j < sh.algebraics; ++j) {
        const double d = col[sh.states + j];
        if (d != 0.0) sink.add(g_vr[j], kvr, d);
      }
      if (h.network_device) {
        const double dr = col[sh.states + sh.algebraics], di = col[sh.states + sh.algebraics + 1];
        if (dr != 0.0) sink.add(res_r, kvr, -dr);
        if (di != 0.0) sink.add(res_i, kvr, -di);
      }
      const LimiterRecord* tangent = partial_tangent.data() + static_cast<std::size_t>(c) * nl;
      for (std::uint32_t l = 0; l < nl; ++l) {
        if (!record[l].written) continue;
        const double d = limiter_indicator_tangent(h.kind(l), mode[l], record[l], tangent[l]);
        if (d != 0.0) sink.add(ind_vr[l], kvr, d);
      }
    }
  }
}

}  // namespace lsdae::psse
