// tests/models/psse/network_test.cpp -- the network beyond branches and
// transformers, on the PSS/E cases of ../shared/data/grids/psse: impedance
// correction tables (read in both layouts, applied at a winding's ratio),
// the branch and generator tables by which disturbances name their target,
// the islands an opened branch leaves, and a generator's step-up transformer (RT + jXT) against the same
// transformer written as a branch of the case.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>

#include "file_text.h"
#include "psse/case/case_builder.h"
#include "psse/io/dyr_reader.h"
#include "psse/io/psse_text.h"
#include "psse/io/raw_reader.h"
#include "psse/network/network.h"
#include "psse/system/islands.h"
#include "psse/system/system.h"
#include "psse/tool/case_tables.h"

namespace lsdae::psse {
namespace {

const std::string kData = LSDAE_PSSE_DATA_DIR;

using test::file_text;

// The TVC case (version 32) with `table` as its impedance correction data.
std::string tvc_with_table(const std::string& table) {
  std::string text = file_text(kData + "/EXST1/TVC_System_32.raw");
  const std::string marker = "BEGIN IMPEDANCE CORRECTION DATA\n";
  const auto at = text.find(marker);
  EXPECT_NE(at, std::string::npos);
  return text.insert(at + marker.size(), table);
}

std::string message_of(const std::string& text) {
  try {
    parse_raw(text, "case.raw");
  } catch (const TextError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ImpedanceCorrection, Version32TableOnOneLine) {
  const RawCase rc = parse_raw(tvc_with_table("1, 0.9, 0.8, 1.0, 1.0, 1.1, 1.3, 0.0, 0.0, 0.0, 0.0\n"), "tvc.raw");
  ASSERT_EQ(rc.impedance_corrections.size(), 1u);
  const RawImpedanceCorrection& t = rc.impedance_corrections[0];
  EXPECT_EQ(t.number, 1);
  ASSERT_EQ(t.t.size(), 3u);  // the zero points are unused
  EXPECT_DOUBLE_EQ(t.t[2], 1.1);
  EXPECT_EQ(t.f[2], std::complex<double>(1.3, 0.0));
  // Linear between the points, the end value outside them.
  EXPECT_NEAR(correction_factor(t, 0.95).real(), 0.9, 1e-15);
  EXPECT_EQ(correction_factor(t, 0.5), std::complex<double>(0.8, 0.0));
  EXPECT_EQ(correction_factor(t, 1.5), std::complex<double>(1.3, 0.0));
  for (const std::string& n : rc.notes) EXPECT_EQ(n.find("impedance correction"), std::string::npos) << n;
}

TEST(ImpedanceCorrection, Version34TableOverSeveralLinesWithComplexFactors) {
  const std::string v34_head = "0, 100.0, 34, 0, 1, 60.0\nt1\nt2\n";
  // The smallest version-34 case: the sections up to the table, then the table over two lines.
  const std::string sections = "0\n1,'A', 138.0, 3\n0\n0\n0\n0\n0\n0\n0\n0\n0\n0\n";
  std::string text = v34_head + sections;
  text += "7, -30.0, 1.2, 0.1, 0.0, 1.0, 0.0\n30.0, 1.2, -0.1, 0.0, 0.0, 0.0\n0\nQ\n";
  const RawCase rc = parse_raw(text, "v34.raw");
  ASSERT_EQ(rc.impedance_corrections.size(), 1u);
  const RawImpedanceCorrection& t = rc.impedance_corrections[0];
  EXPECT_EQ(t.number, 7);
  ASSERT_EQ(t.t.size(), 3u);
  EXPECT_EQ(t.f[0], std::complex<double>(1.2, 0.1));
  EXPECT_EQ(t.f[2], std::complex<double>(1.2, -0.1));
  EXPECT_NEAR(std::abs(correction_factor(t, 15.0) - std::complex<double>(1.1, -0.05)), 0.0, 1e-15);
  // Without its end point the table runs into the end of the file.
  EXPECT_EQ(message_of(v34_head + sections + "7, 0.9, 1.1, 0.0\n"),
            "case.raw:16: impedance correction table: no end point (0.0, 0.0, 0.0) before the end of the file → "
            "end the table with it");
}

TEST(ImpedanceCorrection, Messages) {
  EXPECT_EQ(message_of(tvc_with_table("1, 1.0, 1.0, 0.9, 1.1\n")),
            "case.raw:32: impedance correction table: field 4 (T) = 0.900000 is not above the previous T 1.000000 → "
            "give the points in strictly ascending T");
  EXPECT_EQ(message_of(tvc_with_table("1, 0.9, -1.0, 1.1, 1.0\n")),
            "case.raw:32: impedance correction table: field 3 (F) = -1.000000 is not positive → give positive factors");
}

TEST(ImpedanceCorrection, ScalesTheWindingImpedanceAtItsRatio) {
  const RawCase plain = read_raw(kData + "/EXST1/TVC_System_32.raw");
  RawCase corrected = parse_raw(tvc_with_table("1, 0.9, 0.8, 1.0, 1.0, 1.1, 1.3\n"), "tvc.raw");
  // The second transformer's winding 1 is a tap changer at ratio 0.99 (CW = 1): F = 0.98.
  ASSERT_EQ(corrected.transformers.size(), 2u);
  ASSERT_DOUBLE_EQ(corrected.transformers[1].w[0].windv, 0.99);
  corrected.transformers[1].w[0].tab = 1;
  const Network a = build_network(plain), b = build_network(corrected);
  const std::size_t row = plain.branches.size() + 1;
  ASSERT_EQ(a.branch_records[row].stamps.size(), 1u);
  const BranchStamp& sa = a.branches[a.branch_records[row].stamps[0]];
  const BranchStamp& sb = b.branches[b.branch_records[row].stamps[0]];
  EXPECT_NEAR(std::abs(sb.yft * 0.98 - sa.yft), 0.0, 1e-12 * std::abs(sa.yft));
  EXPECT_NEAR(std::abs(sb.yff * 0.98 - sa.yff), 0.0, 1e-12 * std::abs(sa.yff));
  // The other transformer is untouched; a table the case lacks is refused.
  const BranchStamp& other = b.branches[b.branch_records[row - 1].stamps[0]];
  EXPECT_EQ(other.yft, a.branches[a.branch_records[row - 1].stamps[0]].yft);
  corrected.transformers[0].w[0].tab = 4;
  try {
    build_network(corrected);
    ADD_FAILURE() << "a missing table was accepted";
  } catch (const TextError& e) {
    EXPECT_NE(std::string(e.what()).find("winding 1 names TAB = 4, which is not a table"), std::string::npos) << e.what();
  }
}

TEST(CaseTables, Wecc240RowsNameTheRecords) {
  const std::string dir = kData + "/no_reference/WECC240/";
  const RawCase rc = read_raw(dir + "240busWECC_2018_PSS33.raw");
  const Network net = build_network(rc);
  ASSERT_EQ(net.branch_records.size(), rc.branches.size() + rc.transformers.size());
  ASSERT_EQ(net.generators.size(), rc.generators.size());
  EXPECT_EQ(net.branch_label(0), "line 1001-1201 circuit '1'");
  EXPECT_EQ(net.generators[0].id, "C");  // 1032 'C': a machine id that is not a number
  const std::string machines = machine_table(rc, net, read_dyr(dir + "240busWECC_2018_PSS.dyr"));
  EXPECT_NE(machines.find("    1    1032  'C'   in            873.0     712.0  GENROU SEXS TGOV1  389\n"),
            std::string::npos)
      << machines.substr(0, 400);
  const std::string branches = branch_table(net);
  EXPECT_NE(branches.find("    1  line               1001    1201       -  '1'   in      536\n"), std::string::npos)
      << branches.substr(0, 400);
}

// WECC240's radial line 2407-2408 opened: two islands, bus 2407's without a
// source; with no source at all, one dead island.
TEST(Islands, Wecc240RadialLine) {
  const RawCase rc = read_raw(kData + "/no_reference/WECC240/240busWECC_2018_PSS33.raw");
  const Network net = build_network(rc);
  std::vector<bool> open(net.branches.size(), false), source(net.buses.size(), false);
  for (const GeneratorRecord& g : net.generators)
    if (g.in_service) source[g.terminal] = true;
  const Islands whole = find_islands(net, open, source);
  EXPECT_EQ(whole.count, 1u);
  EXPECT_EQ(whole.dead_count, 0u);
  std::size_t row = 0;
  while (!(net.branch_records[row].from == 2407 && net.branch_records[row].to == 2408)) ++row;
  for (std::size_t k : net.branch_records[row].stamps) open[k] = true;
  const Islands split = find_islands(net, open, source);
  EXPECT_EQ(split.count, 2u);
  EXPECT_EQ(split.dead_count, 1u);
  for (std::size_t i = 0; i < net.buses.size(); ++i) EXPECT_EQ(split.dead[i], net.buses[i].number == 2407) << i;
  const Islands unfed = find_islands(net, open, std::vector<bool>(net.buses.size(), false));
  EXPECT_EQ(unfed.dead_count, 2u);
}

// IEEEST's output is its exciter's VOTHSG: the ladder's IEEEST case keeps it
// with SEXS and drops it (reported) with SEXS substituted by none, and the
// system built without it is at rest with the same machine.
TEST(CaseBuilder, AStabilizerOnAUnitWithoutAnExciterIsDroppedAndReported) {
  const std::string dir = kData + "/IEEEST/";
  auto stabilizers = [](const BuiltCase& c) {
    int n = 0;
    for (const PlacedComponent& p : c.input.components) n += p.component->info().role == Role::stabilizer;
    return n;
  };
  auto reported = [](const BuiltCase& c) {
    std::string found;
    for (const std::string& line : c.report)
      if (line.find("without an exciter") != std::string::npos) found = line;
    return found;
  };
  const BuiltCase with = build_case(dir + "ThreeBusMulti.raw", dir + "ThreeBus_IEEEST.dyr", CaseOptions{});
  EXPECT_EQ(stabilizers(with), 1);
  EXPECT_EQ(reported(with), "");

  CaseOptions no_exciter;
  no_exciter.substitute["SEXS"] = "none";
  BuiltCase without = build_case(dir + "ThreeBusMulti.raw", dir + "ThreeBus_IEEEST.dyr", no_exciter);
  EXPECT_EQ(stabilizers(without), 0);
  const std::string line = reported(without);
  EXPECT_NE(line.find("1 stabilizers on units without an exciter dropped"), std::string::npos) << line;
  EXPECT_NE(line.find("IEEEST at bus 102 id '1'"), std::string::npos) << line;
  EXPECT_NE(line.find("ThreeBus_IEEEST.dyr:"), std::string::npos) << line;
  System s(std::move(without.input), kit::Form::semi_explicit);
  EXPECT_LT(s.report().largest_derivative, 1e-12) << s.report().largest_derivative_name;
}

// GENROU's case with its machine at bus 102 behind a step-up transformer of
// the generator record, against the same transformer as a branch of the case
// and the machine at a bus of its own, held at the terminal voltage found.
TEST(StepUp, EqualsTheTransformerWrittenAsABranch) {
  const std::string dir = kData + "/GENROU/";
  const std::vector<DyrRecord> dyr = read_dyr(dir + "ThreeBus_GENROU.dyr");
  RawCase with_step_up = read_raw(dir + "ThreeBusMulti.raw");
  std::size_t g = 0;
  while (with_step_up.generators[g].bus != 102) ++g;
  with_step_up.generators[g].rt = 0.002;
  with_step_up.generators[g].xt = 0.12;
  with_step_up.generators[g].gtap = 1.025;
  RawCase as_branch = with_step_up;
  const CaseOptions options;
  BuiltCase a = build_case(with_step_up, dyr, options);
  const Complex vt = a.operating_point.voltage.back();
  const Complex st = a.operating_point.generator_power[g];
  EXPECT_GT(std::abs(vt), 1.02);  // the machine raises its voltage through the transformer
  bool reported = false;
  for (const std::string& line : a.report) reported = reported || line.find("1 generators with a step-up") != std::string::npos;
  EXPECT_TRUE(reported);

  RawGenerator& gen = as_branch.generators[g];
  RawBus terminal = as_branch.buses[1];
  terminal.number = 1102;
  terminal.type = 2;
  terminal.vm = std::abs(vt);
  terminal.va = std::arg(vt) * 180.0 / M_PI;
  as_branch.buses[1].type = 1;
  as_branch.buses.push_back(terminal);
  RawTransformer tr;
  tr.i = 1102;
  tr.j = 102;
  tr.ckt = "1";
  tr.cz = 2;  // on the winding base SBASE1-2 = MBASE, as RT + jXT
  tr.r12 = gen.rt;
  tr.x12 = gen.xt;
  tr.sbase12 = gen.mbase;
  tr.w[0].windv = gen.gtap;
  tr.w[1].windv = 1.0;
  as_branch.transformers.push_back(tr);
  gen.bus = 1102;
  gen.rt = gen.xt = 0.0;
  gen.gtap = 1.0;
  gen.pg = st.real() * as_branch.sbase;
  gen.qg = st.imag() * as_branch.sbase;
  std::vector<DyrRecord> moved = dyr;
  for (DyrRecord& d : moved)
    if (d.bus == 102) d.bus = 1102;
  BuiltCase b = build_case(as_branch, moved, options);
  for (int bus : {101, 102, 103}) {
    const Complex va = a.operating_point.voltage[a.input.network.bus_index(bus)];
    const Complex vb = b.operating_point.voltage[b.input.network.bus_index(bus)];
    EXPECT_NEAR(std::abs(va - vb), 0.0, 1e-9) << "bus " << bus;
  }
  EXPECT_NEAR(std::abs(b.operating_point.generator_power[g] - st), 0.0, 1e-9);

  // The machine initializes to the same point, at rest.
  System sa(std::move(a.input), kit::Form::semi_explicit), sb(std::move(b.input), kit::Form::semi_explicit);
  EXPECT_LT(sa.report().largest_derivative, 1e-12) << sa.report().largest_derivative_name;
  EXPECT_LT(sa.report().largest_residual, 1e-10) << sa.report().largest_residual_name;
  std::size_t compared = 0;
  const auto pa = sa.initial_point(), pb = sb.initial_point();
  for (const auto& [name, value] : pa) {
    if (name.rfind("gen[102_1].", 0) != 0) continue;
    const std::string other = "gen[1102_1]." + name.substr(11);
    for (const auto& [name_b, value_b] : pb)
      if (name_b == other) {
        EXPECT_NEAR(value, value_b, 1e-9) << name;
        ++compared;
      }
  }
  EXPECT_GE(compared, 6u);
}

}  // namespace
}  // namespace lsdae::psse
