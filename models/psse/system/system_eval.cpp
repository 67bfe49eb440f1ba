// models/psse/system/system_eval.cpp -- System: residuals, derivatives, event
// indicators and their exact partial derivatives (system.h).
#include <cmath>

#include "psse/core/limiter.h"
#include "psse/system/system_impl.h"

namespace lsdae::psse {

namespace {

// A limiter mode stored as a Float64 variable, as an int: std::lround's
// value, without its call for the three values a mode has.
inline int system_eval_mode(double m) {
  if (m == 0.0) return 0;
  if (m == 1.0) return 1;
  if (m == -1.0) return -1;
  return static_cast<int>(std::lround(m));
}

}  // namespace

void System::Impl::gather(SlotState& s, const double* v) const {
  double* known = s.known.data();
  const ValueRef* from = s.known_vr.data();
  const std::size_t nk = s.known_vr.size();
  for (std::size_t k = 0; k < nk; ++k) known[k] = v[from[k]];
  double* param = s.param.data();
  for (std::size_t k = 0; k < s.p_vr.size(); ++k) param[k] = v[s.p_vr[k]];
  int* mode = s.mode.data();
  for (std::size_t l = 0; l < s.mode_vr.size(); ++l) mode[l] = system_eval_mode(v[s.mode_vr[l]]);
}

void System::Impl::evaluate_slot(SlotState& s, const double* v, double time) {
  gather(s, v);
  for (auto& r : s.record) r.written = false;
  s.slot->evaluate(s.known.data(), s.out.data(), s.param.data(), s.mode.data(), s.record.data(), time);
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

void System::Impl::compute(double* v, double time, bool write_indicators) {
  disturbances.resolve(v, active);
  std::vector<double>& re = scratch_re;
  std::vector<double>& im = scratch_im;
  re.resize(net.buses.size());
  im.resize(net.buses.size());
  network_residuals(v, re.data(), im.data());
  const bool implicit = form == kit::Form::fully_implicit;
  for (SlotState& s : slots) {
    evaluate_slot(s, v, time);
    const FrameShape& sh = s.slot->shape();
    for (int i = 0; i < sh.states; ++i) {
      const double f = s.frozen ? 0.0 : s.out[static_cast<std::size_t>(i)];
      if (implicit) v[s.rx_vr[static_cast<std::size_t>(i)]] = v[s.der_vr[static_cast<std::size_t>(i)]] - f;
      else v[s.der_vr[static_cast<std::size_t>(i)]] = f;
    }
    for (int j = 0; j < sh.algebraics; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      v[s.g_vr[jj]] = s.frozen ? v[s.z_vr[jj]] - s.z_frozen[jj] : s.out[static_cast<std::size_t>(sh.states + j)];
    }
    if (s.network_device && !s.frozen) {
      re[s.placed.bus] -= s.out[static_cast<std::size_t>(sh.states + sh.algebraics)];
      im[s.placed.bus] -= s.out[static_cast<std::size_t>(sh.states + sh.algebraics + 1)];
    }
    if (write_indicators)
      for (std::size_t l = 0; l < s.ind_vr.size(); ++l)
        v[s.ind_vr[l]] = s.record[l].written
                             ? limiter_indicator(s.slot->limiters()[l].kind, s.mode[l], s.record[l]) +
                                   s.indicator_shift[l]
                             : 1.0;
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

void System::Impl::partials(const double* v, double time, kit::PartialSink& sink) {
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
  for (SlotState& s : slots) {
    const FrameShape& sh = s.slot->shape();
    gather(s, v);
    if (implicit)
      for (int i = 0; i < sh.states; ++i)
        sink.add(s.rx_vr[static_cast<std::size_t>(i)], s.der_vr[static_cast<std::size_t>(i)], 1.0);
    if (s.frozen) {
      for (int j = 0; j < sh.algebraics; ++j)
        sink.add(s.g_vr[static_cast<std::size_t>(j)], s.z_vr[static_cast<std::size_t>(j)], 1.0);
      continue;
    }
    s.slot->evaluate(s.known.data(), s.out.data(), s.param.data(), s.mode.data(), s.record.data(), time);
    s.slot->jacobian(s.known.data(), s.param.data(), s.mode.data(), time, s.jac, &s.tangent);
    const auto no = static_cast<std::size_t>(sh.output_count());
    const auto nl = s.record.size();
    for (int c = 0; c < sh.known_count(); ++c) {
      ValueRef kvr;
      if (c < sh.states) kvr = s.x_vr[static_cast<std::size_t>(c)];
      else if (c < sh.states + sh.algebraics) kvr = s.z_vr[static_cast<std::size_t>(c - sh.states)];
      else if (c < sh.vr_index()) {
        const auto k = static_cast<std::size_t>(c - sh.states - sh.algebraics);
        if (!s.u_known[k]) continue;  // a held constant: a parameter, not a known
        kvr = s.u_vr[k];
      } else {
        kvr = c == sh.vr_index() ? vr[s.placed.bus] : vi[s.placed.bus];
      }
      const double* col = s.jac.data() + static_cast<std::size_t>(c) * no;
      for (int r = 0; r < sh.states; ++r) {
        const double d = col[r];
        if (d == 0.0) continue;
        if (implicit) sink.add(s.rx_vr[static_cast<std::size_t>(r)], kvr, -d);
        else sink.add(s.der_vr[static_cast<std::size_t>(r)], kvr, d);
      }
      for (int j = 0; j < sh.algebraics; ++j) {
        const double d = col[sh.states + j];
        if (d != 0.0) sink.add(s.g_vr[static_cast<std::size_t>(j)], kvr, d);
      }
      if (s.network_device) {
        const double dr = col[sh.states + sh.algebraics], di = col[sh.states + sh.algebraics + 1];
        if (dr != 0.0) sink.add(res_re[s.placed.bus], kvr, -dr);
        if (di != 0.0) sink.add(res_im[s.placed.bus], kvr, -di);
      }
      for (std::size_t l = 0; l < nl; ++l) {
        if (!s.record[l].written) continue;
        const double d = limiter_indicator_tangent(s.slot->limiters()[l].kind, s.mode[l], s.record[l],
                                                   s.tangent[static_cast<std::size_t>(c) * nl + l]);
        if (d != 0.0) sink.add(s.ind_vr[l], kvr, d);
      }
    }
  }
}

}  // namespace lsdae::psse
