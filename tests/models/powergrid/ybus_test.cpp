// tests/models/powergrid/ybus_test.cpp -- Ybus assembly: every π-model entry
// against the physics of a branch with an off-nominal, phase-shifting
// transformer, shunts, out-of-service branches, the CSR invariants, and the
// case9 matrix against hand values.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "powergrid/ybus.h"

namespace lsdae::powergrid {
namespace {

Case two_buses(const Branch& b) {
  Case c;
  c.path = "two.m";
  c.base_mva = 100;
  Bus b1, b2;
  b1.number = 10;
  b1.type = BusType::slack;
  b2.number = 20;
  b2.gs = 3;   // MW at 1 p.u.
  b2.bs = -4;  // MVAr at 1 p.u.
  c.buses = {b1, b2};
  c.branches = {b};
  return c;
}

// The branch as physics: an ideal transformer t:1 at the from end, then the
// series impedance with half the charging at each end.
//   from side: V' = V_f / t,  I_f = conj(1/t) I'   (power conserved)
//   I' = (V' − V_t) ys + j b/2 V',   I_t = (V_t − V') ys + j b/2 V_t
void physical_currents(const Branch& br, Complex vf, Complex vt, Complex& i_from, Complex& i_to) {
  const Complex ys = 1.0 / Complex(br.r, br.x);
  const Complex t = std::polar(br.ratio == 0 ? 1.0 : br.ratio, br.angle * std::numbers::pi / 180);
  const Complex v_inner = vf / t;
  const Complex i_inner = (v_inner - vt) * ys + Complex(0, br.b / 2) * v_inner;
  i_from = i_inner / std::conj(t);
  i_to = (vt - v_inner) * ys + Complex(0, br.b / 2) * vt;
}

TEST(Ybus, BranchEntriesMatchTheTransformerPhysics) {
  Branch br;
  br.from = 10;
  br.to = 20;
  br.r = 0.01;
  br.x = 0.12;
  br.b = 0.3;
  for (double ratio : {0.0, 0.95, 1.07})
    for (double angle : {0.0, 30.0, -12.5}) {
      br.ratio = ratio;
      br.angle = angle;
      const BranchAdmittance y = branch_admittance(br);
      const Complex vf = std::polar(1.02, 0.1), vt = std::polar(0.97, -0.25);
      Complex i_from, i_to;
      physical_currents(br, vf, vt, i_from, i_to);
      EXPECT_NEAR(std::abs(y.yff * vf + y.yft * vt - i_from), 0.0, 1e-13) << ratio << " " << angle;
      EXPECT_NEAR(std::abs(y.ytf * vf + y.ytt * vt - i_to), 0.0, 1e-13) << ratio << " " << angle;
    }
}

TEST(Ybus, AssemblesBranchesAndShunts) {
  Branch br;
  br.from = 10;
  br.to = 20;
  br.x = 0.1;
  br.ratio = 0.9;
  const Case c = two_buses(br);
  const BusNumbering buses = number_buses(c);
  EXPECT_EQ(buses.index.at(20), 1u);
  const ComplexCsr y = make_ybus(c, buses);
  check_csr(y, "two");
  ASSERT_EQ(y.nnz(), 4u);
  const BranchAdmittance a = branch_admittance(br);
  EXPECT_EQ(y.value[y.find(0, 0)], a.yff);
  EXPECT_EQ(y.value[y.find(0, 1)], a.yft);
  EXPECT_EQ(y.value[y.find(1, 0)], a.ytf);
  EXPECT_EQ(y.value[y.find(1, 1)], a.ytt + Complex(0.03, -0.04));
}

TEST(Ybus, OutOfServiceBranchesAreLeftOutButDiagonalsStay) {
  Branch br;
  br.from = 10;
  br.to = 20;
  br.x = 0.1;
  br.in_service = false;
  const Case c = two_buses(br);
  const ComplexCsr y = make_ybus(c, number_buses(c));
  ASSERT_EQ(y.nnz(), 2u);
  EXPECT_EQ(y.value[y.find(0, 0)], Complex(0, 0));
  EXPECT_EQ(y.value[y.find(1, 1)], Complex(0.03, -0.04));
  EXPECT_EQ(y.find(0, 1), y.nnz());
}

TEST(Ybus, ParallelBranchesAreSummed) {
  Branch br;
  br.from = 10;
  br.to = 20;
  br.x = 0.1;
  Case c = two_buses(br);
  c.branches.push_back(br);
  const ComplexCsr y = make_ybus(c, number_buses(c));
  EXPECT_EQ(y.nnz(), 4u);
  EXPECT_NEAR(std::abs(y.value[y.find(0, 1)] - Complex(0, 20)), 0.0, 1e-12);
}

TEST(Ybus, CheckCsrNamesTheBrokenRow) {
  ComplexCsr a;
  a.n = 2;
  a.row_start = {0, 1, 2};
  a.column = {0, 0};
  a.value = {1.0, 1.0};
  try {
    check_csr(a, "x.grid");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "x.grid: row 1 has no diagonal entry → regenerate the file");
  }
}

}  // namespace
}  // namespace lsdae::powergrid
