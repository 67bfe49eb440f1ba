// models/powergrid/model.cpp -- PowerGrid: transient stability of a MATPOWER
// case with classical machines, as an FMI-LS-DAE FMU (see README.md).
//
// Per machine m at bus i (system per unit; H, D, x'd, E', Pm from the grid
// data file, ω_s = 2π f):
//     der(δ_m) = ω_s (ω_m − 1)
//     der(ω_m) = (Pm_m − Pe_m − D_m (ω_m − 1)) / (2 H_m)
//     Pe_m     = E'_m (sin δ_m Vr_i − cos δ_m Vi_i) / x'd_m
//     I_m      = (E'_m e^(jδ_m) − V_i) / (j x'd_m)
//              = ((E'_m sin δ_m − Vi_i) + j (Vr_i − E'_m cos δ_m)) / x'd_m
// Per bus i, two algebraic variables Vr_i, Vi_i and the current balance
//     res_i = Σ_k Y_ik V_k + y_f V_i [fault at i] − ΔI_i [trip] − Σ_{m at i} I_m = 0,
//     bus[i].res_re = Re res_i,  bus[i].res_im = Im res_i,
// Y = Ybus + constant-impedance loads (grid_data.h), y_f the fault admittance,
// ΔI_i the current the tripped branch carried out of bus i; a trip that cuts
// buses off from every machine grounds the island's end of the branch through
// 1 p.u. (islands.h: its voltages go to zero; islands.dead_buses and
// islands.lost_load report it). Fully implicit:
// the two differential equations become residuals gen[m].res_delta =
// der(δ) − ω_s(ω − 1) and gen[m].res_omega = 2H der(ω) − (Pm − Pe − D(ω − 1)).
//
// ODE mode (manifest shape B, before the importer sets enableDAEMode): the
// network is linear in V, A V = b(δ) with A = Y + y_f [fault] − trip stamp +
// Σ_m 1/(j x'd_m) at the machine buses and b_i = Σ_{m at i} E'_m e^(jδ_m)/(j x'd_m);
// the FMU solves it with a dense LU (dense_lu.h, refactored when the topology
// or a disturbance parameter changes), writes Vr, Vi, the derivatives from the
// swing equation, and every residual as exactly 0 (they hold by construction).
// Only for grids of at most kMaxOdeBuses buses; larger ones run in DAE mode.
//
// Configuration keys: grid (data file in resources/), form (semi_explicit,
// fully_implicit), manifest (A without switch: DAE-only; or B, with ODE mode),
// fault_bus, fault_on, fault_off, fault_r, fault_x, trip_branch, trip_time
// (default parameter values), fault_buses and trip_branches (candidate sets,
// see disturbance.h); the kit's implicit_form (openmodelica: shape B written as
// OpenModelica's DAE export writes it).
#include <cmath>
#include <cstring>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gridcore/island_names.h"
#include "kit/model.h"
#include "powergrid/dense_lu.h"
#include "powergrid/disturbance.h"
#include "powergrid/grid_data.h"
#include "powergrid/islands.h"

namespace {

using namespace lsdae::kit;
using lsdae::powergrid::Complex;
using lsdae::powergrid::Disturbance;
using lsdae::powergrid::DisturbanceCandidates;
using lsdae::powergrid::DisturbanceParameters;
using lsdae::powergrid::GridData;
using lsdae::powergrid::kNoIndex;

GridData load_grid(const Config& config) {
  const std::string file = config.get_string("grid", "");
  if (file.empty())
    throw std::invalid_argument("model configuration: key \"grid\" is missing → name the grid data file shipped in "
                                "resources/ (lsdae_add_fmu ... RESOURCES <case>.grid CONFIG grid=<case>.grid)");
  return lsdae::powergrid::read_grid_data(config.resource_dir() + file);
}

// A candidate list defaults to the default location of its disturbance.
std::string candidates(const Config& config, const char* list_key, const char* default_key) {
  const long location = config.get_int(default_key, 0);
  return config.get_string(list_key, location == 0 ? "none" : std::to_string(location));
}

class PowerGrid final : public Model {
 public:
  explicit PowerGrid(const Config& config)
      : form_(config.get_choice("form", {"semi_explicit", "fully_implicit"}) == "semi_explicit"
                  ? Form::semi_explicit
                  : Form::fully_implicit),
        grid_(load_grid(config)),
        candidates_(grid_, candidates(config, "fault_buses", "fault_bus"),
                    candidates(config, "trip_branches", "trip_branch")) {
    defaults_.fault_bus = static_cast<double>(config.get_int("fault_bus", 0));
    defaults_.fault_t_on = config.get_double("fault_on", 1.0);
    defaults_.fault_t_off = config.get_double("fault_off", 1.1);
    defaults_.fault_r = config.get_double("fault_r", 0.0);
    defaults_.fault_x = config.get_double("fault_x", 1e-4);
    defaults_.trip_branch = static_cast<double>(config.get_int("trip_branch", 0));
    defaults_.trip_time = config.get_double("trip_time", 1.1);
    lsdae::powergrid::resolve(candidates_, defaults_, grid_.name);  // the default scenario must be valid
    const std::string manifest = config.get_string("manifest", "none");
    if (!((manifest == "A" && config.get_string("enable_dae_switch", "false") == "false") || manifest == "B"))
      throw std::invalid_argument("model configuration: PowerGrid needs manifest=A without enable_dae_switch "
                                  "(a DAE-only FMU) or manifest=B (ODE mode through the switch, for grids of at most " +
                                  std::to_string(kMaxOdeBuses) + " buses)");
    if (manifest == "B" && grid_.bus_number.size() > kMaxOdeBuses)
      throw std::invalid_argument("model configuration: manifest=B gives PowerGrid an ODE mode, a dense network "
                                  "solve inside the FMU, which is limited to " + std::to_string(kMaxOdeBuses) +
                                  " buses; " + grid_.name + " has " + std::to_string(grid_.bus_number.size()) +
                                  " → use manifest=A");
    ode_mode_ = manifest == "B";
    omega_s_ = 2.0 * std::numbers::pi * grid_.frequency;
  }

  void declare(Builder& b) override {
    b.model_name("PowerGrid", "Transient stability of " + grid_.name +
                                  ": classical machines, constant-impedance loads, network current balance in "
                                  "rectangular coordinates");
    b.default_experiment({0.0, 10.0, 1e-6, 0.01});
    b.form(form_);
    b.provides_partials();
    b.has_time_events();
    const std::size_t nm = grid_.machines.size(), n = grid_.bus_number.size();
    // What follows, counted (kit::Builder::expect_variables): per machine
    // delta, omega, their derivatives and H (and with the fully implicit form
    // two residuals), per bus Vr, Vi and two residuals, four flags and seven
    // fault and trip parameters.
    b.expect_variables(nm * (form_ == Form::fully_implicit ? 7 : 5) + 4 * n + 11);

    delta_.resize(nm);
    omega_.resize(nm);
    der_delta_.resize(nm);
    der_omega_.resize(nm);
    for (std::size_t m = 0; m < nm; ++m) {
      const int row = grid_.machines[m].case_row;
      delta_[m] = b.state(lsdae::powergrid::machine_name(row, "delta"), grid_.machines[m].delta0, "rad",
                          "rotor angle", true);
      omega_[m] = b.state(lsdae::powergrid::machine_name(row, "omega"), 1.0, "", "rotor speed, p.u.", true);
    }
    for (std::size_t m = 0; m < nm; ++m) {
      der_delta_[m] = b.derivative(delta_[m]);
      der_omega_[m] = b.derivative(omega_[m]);
    }
    vr_.resize(n);
    vi_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      vr_[i] = b.algebraic(lsdae::powergrid::bus_name(grid_.bus_number[i], "Vr"), grid_.voltage[i].real(), "",
                           "bus voltage, real part, p.u.");
      vi_[i] = b.algebraic(lsdae::powergrid::bus_name(grid_.bus_number[i], "Vi"), grid_.voltage[i].imag(), "",
                           "bus voltage, imaginary part, p.u.");
    }
    // Per admittance entry the value references of its column's Vr and Vi:
    // compute() reads them directly instead of through the column's bus.
    entry_vr_.resize(grid_.y.nnz());
    entry_vi_.resize(grid_.y.nnz());
    for (std::size_t p = 0; p < grid_.y.nnz(); ++p) {
      entry_vr_[p] = vr_[grid_.y.column[p]];
      entry_vi_[p] = vi_[grid_.y.column[p]];
    }
    fault_active_ = b.add(discrete("fault.active", "1 while the fault is on (fault.t_on <= time < fault.t_off)"));
    trip_open_ = b.add(discrete("trip.open", "1 once the branch is tripped (time >= trip.time)"));
    dead_buses_ = b.add(discrete(lsdae::grid::kDeadBusesName, "number of buses the trip cut off from every machine"));
    lost_load_ = b.add(discrete(lsdae::grid::kLostLoadName,
                                "load of the cut-off buses: what they drew through the tripped branch at the "
                                "operating point, MW"));
    res_re_.resize(n);
    res_im_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      res_re_[i] = b.residual_variable(lsdae::powergrid::bus_name(grid_.bus_number[i], "res_re"),
                                       "current balance, real part");
      res_im_[i] = b.residual_variable(lsdae::powergrid::bus_name(grid_.bus_number[i], "res_im"),
                                       "current balance, imaginary part");
    }
    if (form_ == Form::fully_implicit) {
      res_delta_.resize(nm);
      res_omega_.resize(nm);
      for (std::size_t m = 0; m < nm; ++m) {
        const int row = grid_.machines[m].case_row;
        res_delta_[m] = b.residual_variable(lsdae::powergrid::machine_name(row, "res_delta"),
                                            "der(delta) - omega_s (omega - 1)");
        res_omega_[m] = b.residual_variable(lsdae::powergrid::machine_name(row, "res_omega"),
                                            "2 H der(omega) - (Pm - Pe - D (omega - 1))");
      }
    }
    // fault.bus and trip.branch are tunable: set in Event Mode, a new value
    // acts from that event on (a sweep that shares the pre-fault run sets them
    // at the fault's and the trip's events: docs/sweeps.md, "Shared stretches").
    p_fault_bus_ = b.tunable_parameter("fault.bus", defaults_.fault_bus, "",
                                       "bus number of the three-phase fault (0: none); must be in fault_buses=" +
                                           candidates_.fault_text());
    p_fault_on_ = b.parameter("fault.t_on", defaults_.fault_t_on, "s", "time the fault starts");
    p_fault_off_ = b.parameter("fault.t_off", defaults_.fault_t_off, "s", "time the fault is cleared");
    p_fault_r_ = b.parameter("fault.R", defaults_.fault_r, "", "fault resistance, p.u. on the system base");
    p_fault_x_ = b.parameter("fault.X", defaults_.fault_x, "", "fault reactance, p.u. on the system base");
    p_trip_branch_ = b.tunable_parameter("trip.branch", defaults_.trip_branch, "",
                                         "row of mpc.branch of the line tripped (0: none); must be in trip_branches=" +
                                             candidates_.trip_text());
    p_trip_time_ = b.parameter("trip.time", defaults_.trip_time, "s", "time the line is tripped");
    // The machines' inertia constants, for the centre of inertia
    // (δ_COI = Σ H_m δ_m / Σ H_m, e.g. lsdae sweep's maxdev(gen[*].delta, gen[*].H)).
    h_.resize(nm);
    for (std::size_t m = 0; m < nm; ++m) {
      Variable h;
      h.name = lsdae::powergrid::machine_name(grid_.machines[m].case_row, "H");
      h.description = "inertia constant on the system base (H S_m / S_b), s";
      h.causality = Causality::calculated_parameter;
      h.variability = Variability::fixed;
      h.initial = Initial::calculated;
      h.unit = "s";
      h_[m] = b.add(std::move(h));
    }

    declare_structure(b);
  }

  void compute(Context& c) override {
    double* v = c.v;
    const Disturbance d = disturbance(v);
    if (c.initialization) {
      for (std::size_t m = 0; m < h_.size(); ++m) v[h_[m]] = grid_.machines[m].h;
      v[fault_active_] = d.fault_active(c.time) ? 1.0 : 0.0;
      v[trip_open_] = d.trip_open(c.time) ? 1.0 : 0.0;
      update_islands(v, d);
    }
    if (!c.dae_mode) {
      compute_ode_mode(v, d);
      return;
    }
    const auto& y = grid_.y;
    const Complex* value = y.value.data();
    const ValueRef* entry_vr = entry_vr_.data();
    const ValueRef* entry_vi = entry_vi_.data();
    for (std::size_t i = 0; i < y.n; ++i) {
      double re = 0, im = 0;
      for (std::size_t p = y.row_start[i]; p < y.row_start[i + 1]; ++p) {
        const double g = value[p].real(), bb = value[p].imag(), vr = v[entry_vr[p]], vi = v[entry_vi[p]];
        re += g * vr - bb * vi;
        im += bb * vr + g * vi;
      }
      v[res_re_[i]] = re;
      v[res_im_[i]] = im;
    }
    if (v[fault_active_] != 0.0 && d.fault_bus != kNoIndex) {
      const std::size_t i = d.fault_bus;
      const Complex current = d.fault_admittance * voltage(v, i);
      v[res_re_[i]] += current.real();
      v[res_im_[i]] += current.imag();
    }
    if (v[trip_open_] != 0.0 && d.trip_branch != kNoIndex) {
      const auto& br = grid_.branches[d.trip_branch];
      const Complex vf = voltage(v, br.from), vt = voltage(v, br.to);
      const Complex i_from = br.yff * vf + br.yft * vt, i_to = br.ytf * vf + br.ytt * vt;
      v[res_re_[br.from]] -= i_from.real();
      v[res_im_[br.from]] -= i_from.imag();
      v[res_re_[br.to]] -= i_to.real();
      v[res_im_[br.to]] -= i_to.imag();
      if (const std::size_t g = island(d.trip_branch).ground; g != kNoIndex) {
        v[res_re_[g]] += lsdae::powergrid::kGroundConductance * v[vr_[g]];
        v[res_im_[g]] += lsdae::powergrid::kGroundConductance * v[vi_[g]];
      }
    }
    for (std::size_t m = 0; m < grid_.machines.size(); ++m) {
      const auto& mc = grid_.machines[m];
      const double s = std::sin(v[delta_[m]]), co = std::cos(v[delta_[m]]);
      const double vr = v[vr_[mc.bus]], vi = v[vi_[mc.bus]];
      v[res_re_[mc.bus]] -= (mc.e * s - vi) / mc.xd;
      v[res_im_[mc.bus]] -= (vr - mc.e * co) / mc.xd;
      const double pe = mc.e * (s * vr - co * vi) / mc.xd;
      const double slip = v[omega_[m]] - 1.0;
      const double accelerating = mc.pm - pe - mc.d * slip;
      if (form_ == Form::semi_explicit) {
        v[der_delta_[m]] = omega_s_ * slip;
        v[der_omega_[m]] = accelerating / (2.0 * mc.h);
      } else {
        v[res_delta_[m]] = v[der_delta_[m]] - omega_s_ * slip;
        v[res_omega_[m]] = 2.0 * mc.h * v[der_omega_[m]] - accelerating;
      }
    }
  }

  void partials(const Context& c, PartialSink& sink) override {
    const double* v = c.v;
    const Disturbance d = disturbance(v);
    if (!c.dae_mode) {
      ode_partials(v, d, sink);
      return;
    }
    const auto& y = grid_.y;
    for (std::size_t i = 0; i < y.n; ++i)
      for (std::size_t p = y.row_start[i]; p < y.row_start[i + 1]; ++p)
        add_block(sink, i, y.column[p], y.value[p]);
    if (v[fault_active_] != 0.0 && d.fault_bus != kNoIndex)
      add_block(sink, d.fault_bus, d.fault_bus, d.fault_admittance);
    if (v[trip_open_] != 0.0 && d.trip_branch != kNoIndex) {
      const auto& br = grid_.branches[d.trip_branch];
      add_block(sink, br.from, br.from, -br.yff);
      add_block(sink, br.from, br.to, -br.yft);
      add_block(sink, br.to, br.from, -br.ytf);
      add_block(sink, br.to, br.to, -br.ytt);
      if (const std::size_t g = island(d.trip_branch).ground; g != kNoIndex)
        add_block(sink, g, g, Complex(lsdae::powergrid::kGroundConductance, 0.0));
    }
    for (std::size_t m = 0; m < grid_.machines.size(); ++m) {
      const auto& mc = grid_.machines[m];
      const double s = std::sin(v[delta_[m]]), co = std::cos(v[delta_[m]]);
      const double vr = v[vr_[mc.bus]], vi = v[vi_[mc.bus]];
      const std::size_t i = mc.bus;
      sink.add(res_re_[i], vi_[i], 1.0 / mc.xd);
      sink.add(res_re_[i], delta_[m], -mc.e * co / mc.xd);
      sink.add(res_im_[i], vr_[i], -1.0 / mc.xd);
      sink.add(res_im_[i], delta_[m], -mc.e * s / mc.xd);
      // Pe and its partials.
      const double dpe_ddelta = mc.e * (co * vr + s * vi) / mc.xd;
      const double dpe_dvr = mc.e * s / mc.xd, dpe_dvi = -mc.e * co / mc.xd;
      if (form_ == Form::semi_explicit) {
        const double k = 1.0 / (2.0 * mc.h);
        sink.add(der_delta_[m], omega_[m], omega_s_);
        sink.add(der_omega_[m], omega_[m], -mc.d * k);
        sink.add(der_omega_[m], delta_[m], -dpe_ddelta * k);
        sink.add(der_omega_[m], vr_[i], -dpe_dvr * k);
        sink.add(der_omega_[m], vi_[i], -dpe_dvi * k);
      } else {
        sink.add(res_delta_[m], der_delta_[m], 1.0);
        sink.add(res_delta_[m], omega_[m], -omega_s_);
        sink.add(res_omega_[m], der_omega_[m], 2.0 * mc.h);
        sink.add(res_omega_[m], omega_[m], mc.d);
        sink.add(res_omega_[m], delta_[m], dpe_ddelta);
        sink.add(res_omega_[m], vr_[i], dpe_dvr);
        sink.add(res_omega_[m], vi_[i], dpe_dvi);
      }
    }
  }

  DiscreteUpdate update_discrete(Context& c) override {
    const Disturbance d = disturbance(c.v);
    c.v[fault_active_] = d.fault_active(c.time) ? 1.0 : 0.0;
    c.v[trip_open_] = d.trip_open(c.time) ? 1.0 : 0.0;
    update_islands(c.v, d);
    DiscreteUpdate u;
    u.next_event_time = d.next_event(c.time);
    return u;
  }

 private:
  static constexpr std::size_t kMaxOdeBuses = 500;

  // ---- ODE mode (shape B before the switch) --------------------------------

  // The network matrix of the current topology, factored; refactored when the
  // fault or trip state or a disturbance parameter changed.
  void factor_network(const double* v, const Disturbance& d) {
    const bool fault = v[fault_active_] != 0.0 && d.fault_bus != kNoIndex;
    const bool trip = v[trip_open_] != 0.0 && d.trip_branch != kNoIndex;
    const NetworkKey key{fault ? d.fault_bus : kNoIndex, fault ? d.fault_admittance : Complex(),
                         trip ? d.trip_branch : kNoIndex};
    if (factored_ && key == factored_key_) return;
    const auto& y = grid_.y;
    const std::size_t n = y.n;
    std::vector<Complex> a(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t p = y.row_start[i]; p < y.row_start[i + 1]; ++p) a[i * n + y.column[p]] += y.value[p];
    if (fault) a[d.fault_bus * n + d.fault_bus] += d.fault_admittance;
    if (trip) {
      const auto& br = grid_.branches[d.trip_branch];
      a[br.from * n + br.from] -= br.yff;
      a[br.from * n + br.to] -= br.yft;
      a[br.to * n + br.from] -= br.ytf;
      a[br.to * n + br.to] -= br.ytt;
      if (const std::size_t g = island(d.trip_branch).ground; g != kNoIndex)
        a[g * n + g] += lsdae::powergrid::kGroundConductance;
    }
    for (const auto& mc : grid_.machines) a[mc.bus * n + mc.bus] += 1.0 / Complex(0.0, mc.xd);
    lu_.factor(n, a);
    factored_key_ = key;
    factored_ = true;
  }

  void compute_ode_mode(double* v, const Disturbance& d) {
    factor_network(v, d);
    network_.assign(grid_.y.n, Complex());
    for (std::size_t m = 0; m < grid_.machines.size(); ++m) {
      const auto& mc = grid_.machines[m];
      network_[mc.bus] += mc.e * std::polar(1.0, v[delta_[m]]) / Complex(0.0, mc.xd);
    }
    lu_.solve(network_);
    for (std::size_t i = 0; i < grid_.y.n; ++i) {
      v[vr_[i]] = network_[i].real();
      v[vi_[i]] = network_[i].imag();
      v[res_re_[i]] = v[res_im_[i]] = 0.0;  // the network equations hold by construction
    }
    for (std::size_t m = 0; m < grid_.machines.size(); ++m) {
      const auto& mc = grid_.machines[m];
      const double s = std::sin(v[delta_[m]]), co = std::cos(v[delta_[m]]);
      const double pe = mc.e * (s * v[vr_[mc.bus]] - co * v[vi_[mc.bus]]) / mc.xd;
      const double slip = v[omega_[m]] - 1.0;
      v[der_delta_[m]] = omega_s_ * slip;
      v[der_omega_[m]] = (mc.pm - pe - mc.d * slip) / (2.0 * mc.h);
      if (form_ == Form::fully_implicit) v[res_delta_[m]] = v[res_omega_[m]] = 0.0;
    }
  }

  // dV/dδ_k = A⁻¹ e_(bus of k) E'_k e^(jδ_k)/x'd_k (b's derivative), then Pe and the swing equation.
  void ode_partials(const double* v, const Disturbance& d, PartialSink& sink) {
    factor_network(v, d);
    const std::size_t nm = grid_.machines.size(), n = grid_.y.n;
    std::vector<Complex> dv(n);
    for (std::size_t k = 0; k < nm; ++k) {
      const auto& mk = grid_.machines[k];
      std::fill(dv.begin(), dv.end(), Complex());
      dv[mk.bus] = mk.e * std::polar(1.0, v[delta_[k]]) / mk.xd;
      lu_.solve(dv);
      for (std::size_t i = 0; i < n; ++i) {
        sink.add(vr_[i], delta_[k], dv[i].real());
        sink.add(vi_[i], delta_[k], dv[i].imag());
      }
      for (std::size_t m = 0; m < nm; ++m) {
        const auto& mc = grid_.machines[m];
        const double s = std::sin(v[delta_[m]]), co = std::cos(v[delta_[m]]);
        double dpe = mc.e * (s * dv[mc.bus].real() - co * dv[mc.bus].imag()) / mc.xd;
        if (m == k) dpe += mc.e * (co * v[vr_[mc.bus]] + s * v[vi_[mc.bus]]) / mc.xd;
        sink.add(der_omega_[m], delta_[k], -dpe / (2.0 * mc.h));
      }
    }
    for (std::size_t m = 0; m < nm; ++m) {
      const auto& mc = grid_.machines[m];
      sink.add(der_delta_[m], omega_[m], omega_s_);
      sink.add(der_omega_[m], omega_[m], -mc.d / (2.0 * mc.h));
    }
  }

  // The dead island of trip branch k (islands.h), found at its first use.
  const lsdae::powergrid::DeadIsland& island(std::size_t k) {
    if (islands_.size() != grid_.branches.size()) islands_.resize(grid_.branches.size());
    if (!islands_[k]) islands_[k] = lsdae::powergrid::dead_island(grid_, k);
    return *islands_[k];
  }

  // islands.dead_buses for the trip in force; islands.lost_load the power
  // the island drew through the tripped branch at the operating point (the
  // power flow's voltages, grid_data.h), in MW: its loads (admittances inside
  // Y), shunts and losses as the case states them, not as a fault before the
  // trip may have left them.
  void update_islands(double* v, const Disturbance& d) {
    const bool trip = v[trip_open_] != 0.0 && d.trip_branch != kNoIndex;
    const lsdae::powergrid::DeadIsland* dead = trip ? &island(d.trip_branch) : nullptr;
    v[dead_buses_] = dead != nullptr ? static_cast<double>(dead->buses.size()) : 0.0;
    v[lost_load_] = 0.0;
    if (dead == nullptr || dead->buses.empty()) return;
    const auto& br = grid_.branches[d.trip_branch];
    const Complex vf = grid_.voltage[br.from], vt = grid_.voltage[br.to];
    const bool at_to = dead->ground == br.to;
    const Complex out_of_island = at_to ? br.ytf * vf + br.ytt * vt : br.yff * vf + br.yft * vt;
    const double inflow = -((at_to ? vt : vf) * std::conj(out_of_island)).real();
    // As far as the power flow's mismatch can tell it from nothing (a bus without load: rounding).
    if (std::fabs(inflow) > grid_.power_flow_mismatch) v[lost_load_] = inflow * grid_.base_mva;
  }

  struct NetworkKey {
    std::size_t fault_bus = kNoIndex;
    Complex fault_admittance;
    std::size_t trip_branch = kNoIndex;
    friend bool operator==(const NetworkKey&, const NetworkKey&) = default;
  };

  static Variable discrete(const char* name, const char* description) {
    Variable x;
    x.name = std::string(name);
    x.description = std::string(description);
    x.causality = Causality::local;
    x.variability = Variability::discrete;
    x.initial = Initial::calculated;
    return x;
  }

  Complex voltage(const double* v, std::size_t bus) const { return {v[vr_[bus]], v[vi_[bus]]}; }

  // The disturbance of the parameters' values; resolved again only when one
  // of them changed (compute() and partials() ask at every call: two hash
  // look-ups and a complex division each time before).
  Disturbance disturbance(const double* v) const {
    DisturbanceParameters p;
    p.fault_bus = v[p_fault_bus_];
    p.fault_t_on = v[p_fault_on_];
    p.fault_t_off = v[p_fault_off_];
    p.fault_r = v[p_fault_r_];
    p.fault_x = v[p_fault_x_];
    p.trip_branch = v[p_trip_branch_];
    p.trip_time = v[p_trip_time_];
    if (resolved_ && std::memcmp(&p, &resolved_for_, sizeof p) == 0) return resolved_disturbance_;
    resolved_disturbance_ = lsdae::powergrid::resolve(candidates_, p, grid_.name);  // throws: nothing kept
    resolved_for_ = p;
    resolved_ = true;
    return resolved_disturbance_;
  }

  // d(res_i)/d(V_k) of the term a·V_k: the real 2×2 block [[Re a, −Im a], [Im a, Re a]].
  void add_block(PartialSink& sink, std::size_t i, std::size_t k, Complex a) const {
    sink.add(res_re_[i], vr_[k], a.real());
    sink.add(res_re_[i], vi_[k], -a.imag());
    sink.add(res_im_[i], vr_[k], a.imag());
    sink.add(res_im_[i], vi_[k], a.real());
  }

  // Manifest dependencies: every admittance entry is a full 2×2 block of
  // Vr/Vi dependencies (kept even where G or B is zero, so the pattern does
  // not depend on values), constant except where a fault or trip candidate
  // switches it (discrete); rotor angles enter nonlinearly (dependent).
  void declare_structure(Builder& b) {
    const auto& y = grid_.y;
    const std::size_t nm = grid_.machines.size();
    std::vector<bool> switched(y.nnz(), false);
    for (std::size_t i = 0; i < y.n; ++i)
      if (candidates_.fault_candidate(i)) switched[y.find(i, i)] = true;
    for (std::size_t k = 0; k < grid_.branches.size(); ++k) {
      if (!candidates_.trip_candidate(k)) continue;
      const auto& br = grid_.branches[k];
      for (auto [r, col] : {std::pair{br.from, br.from}, {br.from, br.to}, {br.to, br.from}, {br.to, br.to}})
        switched[y.find(r, col)] = true;
    }
    std::vector<std::vector<std::size_t>> machines_at(y.n);
    for (std::size_t m = 0; m < nm; ++m) machines_at[grid_.machines[m].bus].push_back(m);

    for (std::size_t i = 0; i < y.n; ++i) {
      std::vector<Dependency> deps;
      for (std::size_t p = y.row_start[i]; p < y.row_start[i + 1]; ++p) {
        const DepKind kind = switched[p] ? DepKind::discrete : DepKind::constant;
        deps.push_back({vr_[y.column[p]], kind});
        deps.push_back({vi_[y.column[p]], kind});
      }
      for (std::size_t m : machines_at[i]) deps.push_back({delta_[m], DepKind::dependent});
      b.residual_group({{{res_re_[i], 0, deps}}});
      b.residual_group({{{res_im_[i], 0, std::move(deps)}}});
    }
    if (ode_mode_) {
      // ODE mode: V solves the whole network, so every der(ω) depends on every rotor angle.
      for (std::size_t m = 0; m < nm; ++m) {
        b.ode_dependencies(der_delta_[m], {{omega_[m], DepKind::constant}});
        std::vector<Dependency> deps{{omega_[m], DepKind::constant}};
        for (std::size_t k = 0; k < nm; ++k) deps.push_back({delta_[k], DepKind::dependent});
        b.ode_dependencies(der_omega_[m], std::move(deps));
      }
    }
    for (std::size_t m = 0; m < nm; ++m) {
      const std::size_t i = grid_.machines[m].bus;
      const std::vector<Dependency> swing = {{omega_[m], DepKind::constant},
                                             {delta_[m], DepKind::dependent},
                                             {vr_[i], DepKind::dependent},
                                             {vi_[i], DepKind::dependent}};
      if (form_ == Form::semi_explicit) {
        b.dae_dependencies(der_delta_[m], {{omega_[m], DepKind::constant}});
        b.dae_dependencies(der_omega_[m], swing);
      } else {
        b.residual_group({{{res_delta_[m], 0, {{der_delta_[m], DepKind::constant}, {omega_[m], DepKind::constant}}}}});
        std::vector<Dependency> deps = swing;
        deps.insert(deps.begin(), {der_omega_[m], DepKind::constant});
        b.residual_group({{{res_omega_[m], 0, std::move(deps)}}});
      }
    }
  }

  Form form_;
  bool ode_mode_ = false;  // manifest B: an ODE mode before the switch
  GridData grid_;
  DisturbanceCandidates candidates_;
  DisturbanceParameters defaults_;
  double omega_s_ = 0;
  std::vector<ValueRef> delta_, omega_, der_delta_, der_omega_, vr_, vi_, res_re_, res_im_, res_delta_, res_omega_;
  ValueRef fault_active_ = 0, trip_open_ = 0, dead_buses_ = 0, lost_load_ = 0;
  std::vector<std::optional<lsdae::powergrid::DeadIsland>> islands_;  // per branch, found at its first trip
  std::vector<ValueRef> h_;  // gen[m].H, calculated parameters
  std::vector<ValueRef> entry_vr_, entry_vi_;  // per entry of grid_.y: its column's Vr and Vi
  // disturbance(): the last parameter values resolved (bits) and their result.
  mutable DisturbanceParameters resolved_for_;
  mutable Disturbance resolved_disturbance_;
  mutable bool resolved_ = false;
  ValueRef p_fault_bus_ = 0, p_fault_on_ = 0, p_fault_off_ = 0, p_fault_r_ = 0, p_fault_x_ = 0;
  ValueRef p_trip_branch_ = 0, p_trip_time_ = 0;
  lsdae::powergrid::DenseComplexLu lu_;
  NetworkKey factored_key_;
  bool factored_ = false;
  std::vector<Complex> network_;  // the right-hand side, then V
};

}  // namespace

LSDAE_KIT_MODEL(PowerGrid)
