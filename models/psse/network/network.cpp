// models/psse/network/network.cpp -- see network.h.
#include "psse/network/network.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "psse/io/psse_text.h"

namespace lsdae::psse {

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

std::string where(const RawCase& rc, int line, const char* what) {
  return rc.path + ":" + std::to_string(line) + ": " + what;
}

// Winding ratio in p.u. of the bus base voltage (network.h, CW).
double winding_ratio(const RawCase& rc, const RawTransformer& t, const RawWinding& w, double bus_kv, int winding) {
  const std::string label = "transformer record, winding " + std::to_string(winding);
  double windv = w.windv;
  if (t.cw == 2 && std::isnan(windv)) windv = bus_kv;
  if (std::isnan(windv)) windv = 1.0;
  double ratio = windv;
  if (t.cw == 2 || t.cw == 3) {
    if (!(bus_kv > 0.0))
      throw TextError(where(rc, t.line, label.c_str()) + ": CW = " + std::to_string(t.cw) +
                      " needs the bus base voltage, and the bus has BASKV = " + std::to_string(bus_kv) +
                      " → give the bus its base kV, or the ratio in p.u. (CW = 1)");
    if (t.cw == 2) ratio = windv / bus_kv;
    else ratio = windv * (w.nomv > 0.0 ? w.nomv : bus_kv) / bus_kv;
  }
  if (!(std::fabs(ratio) > 0.0) || !std::isfinite(ratio))
    throw TextError(where(rc, t.line, label.c_str()) + ": the ratio is " + std::to_string(ratio) +
                    " → give WINDV a positive value");
  return ratio;
}

// Pair impedance R + jX to the system base (network.h, CZ).
Complex pair_impedance(const RawCase& rc, const RawTransformer& t, double r, double x, double sbase_pair,
                       const char* pair) {
  const double s = sbase_pair > 0.0 ? sbase_pair : rc.sbase;
  if (t.cz == 1) return {r, x};
  if (t.cz == 2) return Complex(r, x) * (rc.sbase / s);
  const double rr = r / 1e6 / s;  // load loss in W → p.u. on the pair base
  if (std::fabs(x) < rr)
    throw TextError(where(rc, t.line, "transformer record") + ": CZ = 3 with impedance magnitude " + pair + " = " +
                    std::to_string(x) + " below the resistance from the load loss " + std::to_string(rr) +
                    " → correct the record");
  const double xx = std::copysign(std::sqrt(x * x - rr * rr), x);
  return Complex(rr, xx) * (rc.sbase / s);
}

Complex magnetizing(const RawCase& rc, const RawTransformer& t, double bus_kv) {
  if (t.cm == 1) return {t.mag1, t.mag2};
  const double s = t.sbase12 > 0.0 ? t.sbase12 : rc.sbase;
  const double g = t.mag1 / 1e6 / s;
  if (t.mag2 < g)
    throw TextError(where(rc, t.line, "transformer record") + ": CM = 2 with exciting current MAG2 = " +
                    std::to_string(t.mag2) + " below the no-load loss conductance " + std::to_string(g) +
                    " → correct the record");
  const double b = -std::sqrt(t.mag2 * t.mag2 - g * g);
  const double nomv = t.w[0].nomv > 0.0 && bus_kv > 0.0 ? t.w[0].nomv : bus_kv;
  const double v_ratio = bus_kv > 0.0 ? bus_kv / nomv : 1.0;
  return Complex(g, b) * (s / rc.sbase) * v_ratio * v_ratio;
}

Complex series_admittance(Complex z, double thrshz) {
  if (std::abs(z) < thrshz && z.real() == 0.0) z = Complex(0.0, thrshz);
  return 1.0 / z;
}

// The correction of winding `w` (0-based) of `tr`, whose ratio is `ratio`:
// 1 without a table; throws for a table the case does not have.
Complex winding_correction(const RawCase& rc, const RawTransformer& tr, std::size_t w, double ratio) {
  const int tab = tr.w[w].tab;
  if (tab == 0) return 1.0;
  for (const RawImpedanceCorrection& table : rc.impedance_corrections) {
    if (table.number != tab) continue;
    const bool angle = rc.version >= 34 ? std::abs(tr.w[w].cod) == 3
                                        : table.t.front() < 0.5 || table.t.back() > 1.5;
    return correction_factor(table, angle ? tr.w[w].ang : ratio);
  }
  throw TextError(where(rc, tr.line, "transformer record") + ": winding " + std::to_string(w + 1) + " names TAB = " +
                  std::to_string(tab) + ", which is not a table of the impedance correction data → add the table "
                  "or set TAB to 0");
}

}  // namespace

Complex correction_factor(const RawImpedanceCorrection& table, double x) {
  const auto& t = table.t;
  if (x <= t.front()) return table.f.front();
  if (x >= t.back()) return table.f.back();
  std::size_t k = 1;
  while (t[k] < x) ++k;
  const double a = (x - t[k - 1]) / (t[k] - t[k - 1]);
  return table.f[k - 1] + a * (table.f[k] - table.f[k - 1]);
}

std::string Network::branch_label(std::size_t row) const {
  const BranchRecord& r = branch_records.at(row);
  const char* kind = r.kind == BranchRecord::Kind::line               ? "line "
                     : r.kind == BranchRecord::Kind::switching_device ? "switching device "
                                                                       : "transformer ";
  std::string ends = std::to_string(r.from) + "-" + std::to_string(r.to);
  if (r.third != 0) ends += "-" + std::to_string(r.third);
  return std::string(kind) + ends + " circuit '" + r.ckt + "'";
}

WindingAdmittance transformer_admittance(Complex y, Complex a1, double t2) {
  WindingAdmittance w;
  w.yff = y / std::norm(a1);
  w.yft = -y / (std::conj(a1) * t2);
  w.ytf = -y / (a1 * t2);
  w.ytt = y / (t2 * t2);
  return w;
}

std::size_t Network::bus_index(int number) const {
  auto it = index_of.find(number);
  if (it == index_of.end()) throw std::out_of_range("bus " + std::to_string(number) + " is not in the network");
  return it->second;
}

Network build_network(const RawCase& rc) {
  Network net;
  net.path = rc.path;
  net.sbase = rc.sbase;
  net.frequency = rc.frequency;
  int largest = 0;
  std::size_t isolated = 0;
  for (const RawBus& b : rc.buses) {
    largest = std::max(largest, b.number);
    if (b.type == 4) {
      ++isolated;
      continue;
    }
    net.index_of[b.number] = net.buses.size();
    net.buses.push_back({b.number, b.name, b.base_kv, b.type, std::polar(b.vm, b.va * kDeg), false, -1});
  }
  if (isolated > 0) net.notes.push_back(std::to_string(isolated) + " isolated buses (IDE = 4) left out");
  auto in = [&](int number) { return net.index_of.count(number) != 0; };

  std::vector<grid::ComplexTriplet> t;
  auto stamp = [&](BranchStamp b) {
    t.push_back({b.from, b.from, b.yff});
    t.push_back({b.from, b.to, b.yft});
    t.push_back({b.to, b.from, b.ytf});
    t.push_back({b.to, b.to, b.ytt});
    net.branches.push_back(std::move(b));
  };
  std::size_t dropped = 0, zero_impedance = 0;
  for (const RawBranch& br : rc.branches) {
    BranchRecord r;
    r.kind = br.switching_device ? BranchRecord::Kind::switching_device : BranchRecord::Kind::line;
    r.from = br.from;
    r.to = br.to;
    r.ckt = br.ckt;
    r.line = br.line;
    net.branch_records.push_back(std::move(r));
  }
  for (const RawTransformer& tr : rc.transformers) {
    BranchRecord r;
    r.kind = tr.three_winding() ? BranchRecord::Kind::three_winding : BranchRecord::Kind::transformer;
    r.from = tr.i;
    r.to = tr.j;
    r.third = tr.k;
    r.ckt = tr.ckt;
    r.line = tr.line;
    net.branch_records.push_back(std::move(r));
  }
  auto stamp_row = [&](int row) {
    BranchRecord& r = net.branch_records[static_cast<std::size_t>(row)];
    r.stamps.push_back(net.branches.size() - 1);
    r.in_service = true;
  };
  for (std::size_t k = 0; k < rc.branches.size(); ++k) {
    const RawBranch& br = rc.branches[k];
    if (br.status == 0) continue;
    if (!in(br.from) || !in(br.to)) {
      ++dropped;
      continue;
    }
    if (br.r == 0.0 && std::fabs(br.x) < rc.thrshz) ++zero_impedance;
    const Complex y = series_admittance({br.r, br.x}, rc.thrshz);
    BranchStamp s;
    s.kind = br.switching_device ? BranchStamp::Kind::switching_device : BranchStamp::Kind::line;
    s.from = net.bus_index(br.from);
    s.to = net.bus_index(br.to);
    const Complex half(0.0, br.b / 2.0);
    s.yff = y + half + Complex(br.gi, br.bi);
    s.ytt = y + half + Complex(br.gj, br.bj);
    s.yft = s.ytf = -y;
    s.raw_from = br.from;
    s.raw_to = br.to;
    s.ckt = br.ckt;
    s.record = static_cast<int>(k);
    s.line = br.line;
    s.row = static_cast<int>(k);
    stamp(std::move(s));
    stamp_row(static_cast<int>(k));
  }
  if (zero_impedance > 0)
    net.notes.push_back(std::to_string(zero_impedance) + " zero-impedance branches (R = 0, |X| < THRSHZ) given X = THRSHZ = " +
                        std::to_string(rc.thrshz) + " p.u. (PSS/E merges their buses)");

  std::size_t corrected = 0;
  for (std::size_t k = 0; k < rc.transformers.size(); ++k) {
    const RawTransformer& tr = rc.transformers[k];
    if (tr.status == 0) continue;
    const bool three = tr.three_winding();
    if (!in(tr.i) || !in(tr.j) || (three && !in(tr.k))) {
      ++dropped;
      continue;
    }
    const int row = static_cast<int>(rc.branches.size() + k);
    if (tr.w[0].tab != 0 || tr.w[1].tab != 0 || (three && tr.w[2].tab != 0)) ++corrected;
    const std::size_t bi = net.bus_index(tr.i);
    const Complex ym = magnetizing(rc, tr, net.buses[bi].base_kv);
    if (!three) {
      const std::size_t bj = net.bus_index(tr.j);
      const double t1 = winding_ratio(rc, tr, tr.w[0], net.buses[bi].base_kv, 1);
      const double t2 = winding_ratio(rc, tr, tr.w[1], net.buses[bj].base_kv, 2);
      const Complex z = pair_impedance(rc, tr, tr.r12, tr.x12, tr.sbase12, "X1-2") * winding_correction(rc, tr, 0, t1);
      const Complex y = series_admittance(z, rc.thrshz);
      const WindingAdmittance w = transformer_admittance(y, std::polar(t1, tr.w[0].ang * kDeg), t2);
      BranchStamp s;
      s.kind = BranchStamp::Kind::transformer;
      s.from = bi;
      s.to = bj;
      s.yff = w.yff + ym;
      s.yft = w.yft;
      s.ytf = w.ytf;
      s.ytt = w.ytt;
      s.raw_from = tr.i;
      s.raw_to = tr.j;
      s.ckt = tr.ckt;
      s.record = static_cast<int>(k);
      s.line = tr.line;
      s.row = row;
      stamp(std::move(s));
      stamp_row(row);
      continue;
    }
    // Star point.
    const std::size_t star = net.buses.size();
    NetworkBus sb;
    sb.number = largest + 1 + static_cast<int>(k);
    sb.base_kv = 1.0;
    sb.stored_voltage = std::polar(tr.vmstar, tr.anstar * kDeg);
    sb.star_point = true;
    sb.transformer = static_cast<int>(k);
    net.index_of[sb.number] = star;
    net.buses.push_back(sb);
    const Complex z12 = pair_impedance(rc, tr, tr.r12, tr.x12, tr.sbase12, "X1-2");
    const Complex z23 = pair_impedance(rc, tr, tr.r23, tr.x23, tr.sbase23, "X2-3");
    const Complex z31 = pair_impedance(rc, tr, tr.r31, tr.x31, tr.sbase31, "X3-1");
    const Complex zk[3] = {(z12 + z31 - z23) / 2.0, (z12 + z23 - z31) / 2.0, (z23 + z31 - z12) / 2.0};
    const int bus_of[3] = {tr.i, tr.j, tr.k};
    for (int w = 0; w < 3; ++w) {
      if ((tr.status == 4 && w == 0) || (tr.status == 2 && w == 1) || (tr.status == 3 && w == 2)) continue;
      const std::size_t bw = net.bus_index(bus_of[w]);
      const double tw = winding_ratio(rc, tr, tr.w[static_cast<std::size_t>(w)], net.buses[bw].base_kv, w + 1);
      const Complex zw = zk[w] * winding_correction(rc, tr, static_cast<std::size_t>(w), tw);
      const WindingAdmittance a = transformer_admittance(series_admittance(zw, rc.thrshz),
                                                         std::polar(tw, tr.w[static_cast<std::size_t>(w)].ang * kDeg), 1.0);
      BranchStamp s;
      s.kind = BranchStamp::Kind::winding;
      s.from = bw;
      s.to = star;
      s.yff = a.yff + (w == 0 ? ym : Complex());
      s.yft = a.yft;
      s.ytf = a.ytf;
      s.ytt = a.ytt;
      s.raw_from = tr.i;
      s.raw_to = tr.j;
      s.raw_k = tr.k;
      s.ckt = tr.ckt;
      s.record = static_cast<int>(k);
      s.winding = w + 1;
      s.line = tr.line;
      s.row = row;
      stamp(std::move(s));
      stamp_row(row);
    }
  }
  if (dropped > 0)
    net.notes.push_back(std::to_string(dropped) + " in-service branches or transformers at isolated buses left out");
  if (corrected > 0)
    net.notes.push_back(std::to_string(corrected) + " transformers name an impedance correction table (TAB): their " +
                        "impedances corrected at their ratio or angle (" +
                        std::to_string(rc.impedance_corrections.size()) + " tables)");

  net.shunt.assign(net.buses.size(), Complex());
  for (const RawFixedShunt& f : rc.fixed_shunts)
    if (f.status != 0 && in(f.bus)) net.shunt[net.bus_index(f.bus)] += Complex(f.gl, f.bl) / rc.sbase;
  for (const RawSwitchedShunt& w : rc.switched_shunts)
    if (w.status != 0 && in(w.bus)) net.shunt[net.bus_index(w.bus)] += Complex(0.0, w.binit) / rc.sbase;
  if (!rc.switched_shunts.empty()) {
    std::size_t switching = 0;
    for (const RawSwitchedShunt& w : rc.switched_shunts) switching += w.status != 0 && w.modsw != 0 ? 1 : 0;
    net.notes.push_back(std::to_string(rc.switched_shunts.size()) +
                        " switched shunts held at their present setting BINIT (" + std::to_string(switching) +
                        " with a switching mode MODSW != 0: they do not switch during the simulation, as in PSS/E's "
                        "dynamics without a switched-shunt model)");
  }
  for (std::size_t i = 0; i < net.buses.size(); ++i)
    if (net.shunt[i] != Complex()) t.push_back({i, i, net.shunt[i]});
  net.y = grid::assemble_csr(net.buses.size(), t);
  for (const RawGenerator& g : rc.generators) {
    GeneratorRecord r;
    r.bus = g.bus;
    r.id = g.id;
    r.line = g.line;
    r.in_service = g.status != 0 && in(g.bus);
    if (r.in_service) r.terminal = net.bus_index(g.bus);
    net.generators.push_back(std::move(r));
  }
  return net;
}

}  // namespace lsdae::psse
