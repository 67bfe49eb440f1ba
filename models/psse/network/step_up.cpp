// models/psse/network/step_up.cpp -- see step_up.h.
#include "psse/network/step_up.h"

#include <algorithm>
#include <cmath>

#include "psse/core/parameters.h"

namespace lsdae::psse {

std::string add_step_up_transformers(const RawCase& rc, Network& net, OperatingPoint& op) {
  std::vector<grid::ComplexTriplet> t;
  int largest = 0;
  for (const NetworkBus& b : net.buses) largest = std::max(largest, b.number);
  std::size_t added = 0;
  for (std::size_t k = 0; k < rc.generators.size(); ++k) {
    const RawGenerator& g = rc.generators[k];
    GeneratorRecord& record = net.generators[k];
    if (!record.in_service || (g.rt == 0.0 && g.xt == 0.0)) continue;
    const std::string where = rc.path + ":" + std::to_string(g.line) + ": generator " + std::to_string(g.bus) + " '" +
                              g.id + "'";
    if (!(g.mbase > 0.0) || !(g.gtap > 0.0))
      throw ModelError(where + ": a step-up transformer (RT + jXT = " + std::to_string(g.rt) + " + j" +
                       std::to_string(g.xt) + ") needs MBASE > 0 and GTAP > 0 (MBASE = " + std::to_string(g.mbase) +
                       ", GTAP = " + std::to_string(g.gtap) + ") → correct the record");
    const std::size_t bus = record.terminal;
    const WindingAdmittance w =
        transformer_admittance(1.0 / (Complex(g.rt, g.xt) * (rc.sbase / g.mbase)), Complex(g.gtap, 0.0), 1.0);
    const Complex vi = op.voltage[bus];
    const Complex delivered = op.generator_power[k];
    const Complex ii = std::conj(delivered / vi);  // current into bus I from the transformer
    const Complex vt = -(ii + w.ytt * vi) / w.ytf;
    const Complex it = w.yff * vt + w.yft * vi;     // current from the terminal into the transformer

    const std::size_t terminal = net.buses.size();
    NetworkBus tb;
    tb.number = ++largest;
    tb.name = "";
    tb.base_kv = net.buses[bus].base_kv;
    tb.stored_voltage = vt;
    tb.generator = static_cast<int>(k);
    net.index_of[tb.number] = terminal;
    net.buses.push_back(tb);
    net.shunt.push_back(Complex());
    BranchStamp s;
    s.kind = BranchStamp::Kind::step_up;
    s.from = terminal;
    s.to = bus;
    s.yff = w.yff;
    s.yft = w.yft;
    s.ytf = w.ytf;
    s.ytt = w.ytt;
    s.raw_from = tb.number;
    s.raw_to = g.bus;
    s.ckt = g.id;
    s.line = g.line;
    t.push_back({s.from, s.from, s.yff});
    t.push_back({s.from, s.to, s.yft});
    t.push_back({s.to, s.from, s.ytf});
    t.push_back({s.to, s.to, s.ytt});
    net.branches.push_back(std::move(s));
    record.terminal = terminal;
    op.voltage.push_back(vt);
    op.generator_power[k] = vt * std::conj(it);
    ++added;
  }
  if (added == 0) return "";
  for (std::size_t i = 0; i < net.y.n; ++i)
    for (std::size_t p = net.y.row_start[i]; p < net.y.row_start[i + 1]; ++p)
      t.push_back({i, net.y.column[p], net.y.value[p]});
  net.y = grid::assemble_csr(net.buses.size(), t);
  return std::to_string(added) +
         " generators with a step-up transformer (RT + jXT != 0): each machine at a terminal bus of its own behind "
         "its transformer, delivering the power flow's PG + jQG to bus I";
}

}  // namespace lsdae::psse
