// tests/models/powergrid/three_bus_case.h -- the 3-bus MATPOWER case the
// power flow and grid data tests build in memory: the slack at bus 1, a PV
// generator at bus 2 (30 MW at 1.02 p.u.; or a second slack), a 50 + j20 MW
// load at bus 3, branches 1-2, 2-3, 1-3 with r = 0.01, x = 0.1 p.u.; rows on
// lines 11.. (buses), 21.. (generators), 31.. (branches) for messages.
#ifndef LSDAE_TESTS_MODELS_POWERGRID_THREE_BUS_CASE_H
#define LSDAE_TESTS_MODELS_POWERGRID_THREE_BUS_CASE_H

#include <utility>

#include "powergrid/matpower_case.h"

namespace lsdae::powergrid::test {

struct ThreeBusOptions {
  bool two_slacks = false;     // bus 2 a slack bus too
  bool tap_and_shift = false;  // branch 2-3 a transformer: tap 0.98, shift 3 degrees
};

inline Case three_bus_case(ThreeBusOptions o = {}) {
  Case c;
  c.path = "three.m";
  c.name = "three";
  c.base_mva = 100;
  for (int k = 1; k <= 3; ++k) {
    Bus b;
    b.number = k;
    b.line = 10 + k;
    b.type = k == 1 || (k == 2 && o.two_slacks) ? BusType::slack : (k == 2 ? BusType::pv : BusType::pq);
    if (k == 3) {
      b.pd = 50;
      b.qd = 20;
    }
    c.buses.push_back(b);
  }
  for (int k = 1; k <= 2; ++k) {
    Generator g;
    g.bus = k;
    g.line = 20 + k;
    g.pg = k == 2 ? 30 : 0;
    g.vg = k == 2 ? 1.02 : 1.0;
    c.generators.push_back(g);
  }
  int line = 31;
  for (auto [f, t] : {std::pair{1, 2}, {2, 3}, {1, 3}}) {
    Branch br;
    br.from = f;
    br.to = t;
    br.line = line++;
    br.r = 0.01;
    br.x = 0.1;
    if (o.tap_and_shift && f == 2) br.ratio = 0.98, br.angle = 3.0;
    c.branches.push_back(br);
  }
  return c;
}

}  // namespace lsdae::powergrid::test

#endif  // LSDAE_TESTS_MODELS_POWERGRID_THREE_BUS_CASE_H
