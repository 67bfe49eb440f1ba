// tests/models/psse/exciter_data_test.cpp -- every exciter record of the
// ACTIVSg2000 and WECC240 dynamic data (files we did not write) parses, and
// each model starts at rest at a typical operating point; the shared pieces
// (saturation through two points, the rectifier's inverse) against values
// worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "exciter_test_util.h"
#include "psse/core/rectifier.h"
#include "psse/core/registry.h"
#include "psse/core/saturation.h"

namespace lsdae::psse::test {
namespace {

// The records of `models` in a .dyr file: split at '/', the first three
// tokens bus, 'MODEL', id (a test's reader until the PSS/E reader's own
// tests cover these files).
std::vector<DyrRecord> records_of(const std::string& path, const std::set<std::string>& models) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  std::vector<DyrRecord> out;
  std::string chunk;
  int line = 1;
  std::istringstream all(text.str());
  while (std::getline(all, chunk, '/')) {
    std::istringstream tokens(chunk);
    std::string bus, model, id, token;
    const std::size_t start = std::min(chunk.size(), chunk.find_first_not_of(" \r\n\t"));
    const int first_line = line + static_cast<int>(std::count(chunk.begin(), chunk.begin() + static_cast<long>(start), '\n'));
    line += static_cast<int>(std::count(chunk.begin(), chunk.end(), '\n'));
    if (!(tokens >> bus >> model >> id)) continue;
    model.erase(std::remove(model.begin(), model.end(), '\''), model.end());
    if (!models.count(model)) continue;
    std::vector<double> values;
    while (tokens >> token) values.push_back(std::stod(token));
    DyrRecord r = record(std::stoi(bus), model, id, values);
    r.file = path;
    r.line = first_line;
    out.push_back(r);
  }
  return out;
}

const std::set<std::string> kExciters = {"SEXS", "SCRX", "IEEET1", "ESDC1A", "ESDC2A", "EXST1", "ESST1A",
                                         "ESST4B", "ESAC1A", "ESAC6A", "EXAC1", "EXAC2", "EXPIC1"};

std::string data(const std::string& relative) { return std::string(LSDAE_GRID_CASES_DIR) + "/psse/" + relative; }

TEST(ExciterData, EveryRecordParsesAndStartsAtRest) {
  if (!std::filesystem::exists(data("no_reference")))
    GTEST_SKIP() << "no PSS/E cases in LSDAE_GRID_CASES_DIR=" << LSDAE_GRID_CASES_DIR;
  std::map<std::string, int> count;
  std::set<std::string> outside;
  for (const std::string& file : {data("no_reference/ACTIVSg2000/ACTIVSg2000_dynamics.dyr"),
                                  data("no_reference/WECC240/240busWECC_2018_PSS.dyr")}) {
    for (const DyrRecord& r : records_of(file, kExciters)) {
      const ModelEntry* e = find_model(r.model);
      ASSERT_NE(e, nullptr) << r.model;
      ComponentHarness h(e->make(r, unit_100()));
      // A typical machine: Efd and the field current 2 p.u., but for the
      // ESAC6A whose KD = 22.5 needs a small field current.
      h.initialize(kV102, kS102, machine_signals(2.0, r.model == "ESAC6A" ? 0.3 : 2.0));
      ++count[r.model];
      if (!h.outside().empty()) {
        outside.insert(r.model + " " + std::to_string(r.bus) + " " + h.outside()[0]);
        continue;
      }
      EXPECT_LT(h.largest_derivative(), 1e-11) << r.where() << " " << r.model;
      EXPECT_LT(h.jacobian_mismatch(), 1e-6) << r.where() << " " << r.model;
    }
  }
  const std::map<std::string, int> expected = {{"ESST4B", 278}, {"EXPIC1", 61}, {"EXAC2", 38}, {"IEEET1", 23},
                                               {"ESDC1A", 12},  {"ESAC6A", 7},  {"EXAC1", 6},  {"SCRX", 5},
                                               {"ESAC1A", 4},   {"ESDC2A", 1},  {"SEXS", 109}};
  EXPECT_EQ(count, expected);
  // At Efd = 2 four records start beyond a limit, each for a reason in its
  // data: ACTIVSg2000's ESDC2A (its steep saturation, SE(0.2246) = 2.36, asks
  // VR = 3.1 > VT·VRMAX) and three ESST4B with KP = 1, whose source VB ≈ |VT|
  // cannot give Efd = 2 within VRMAX = 1 (buses 4093, 6079) or VMMAX = 1
  // (8147 id 2). The framework reports such records by name.
  EXPECT_EQ(outside, (std::set<std::string>{"ESDC2A 6216 VR", "ESST4B 4093 VR", "ESST4B 6079 VR", "ESST4B 8147 VM"}));
}

// PSS/E's quadratic through (E1, SE1), (E2, SE2), worked by hand: through
// (4, 0.4), (5, 0.5) it is A = 0, B = 0.1; through (1.0, 0.1), (1.2, 0.8)
// (GENROU's S(1.0), S(1.2)) it passes through both points.
TEST(ExciterPieces, SaturationThroughTwoPoints) {
  DyrRecord r = record(1, "ESAC1A", "1", {4, 0.4, 5, 0.5});
  const ParameterSpec specs[] = {{"E1", "", ""}, {"SE(E1)", "", ""}, {"E2", "", ""}, {"SE(E2)", "", ""}};
  const Parameters params(r, specs);
  const QuadraticSaturation s = QuadraticSaturation::through(params, 0, 1, 2, 3);
  EXPECT_NEAR(s.a(), 0.0, 1e-15);
  EXPECT_NEAR(s.b(), 0.1, 1e-15);
  EXPECT_NEAR(s(4.0), 0.4, 1e-15);
  EXPECT_NEAR(s.times(5.0), 2.5, 1e-14);
  DyrRecord q = record(1, "X", "1", {1.0, 0.1, 1.2, 0.8});
  const QuadraticSaturation m = QuadraticSaturation::through(Parameters(q, specs), 0, 1, 2, 3);
  EXPECT_NEAR(m(1.0), 0.1, 1e-15);
  EXPECT_NEAR(m(1.2), 0.8, 1e-14);
  EXPECT_EQ(m(m.a()), 0.0);
  // SE(E1) = 0: none, and the unused SE(E2) is named.
  DyrRecord z = record(1, "X", "1", {1.0, 0.0, 1.2, 0.3});
  const QuadraticSaturation n = QuadraticSaturation::through(Parameters(z, specs), 0, 1, 2, 3);
  EXPECT_FALSE(n.active());
  EXPECT_NE(n.note().find("field 4 (SE(E2)) = 0.3 is not used"), std::string::npos) << n.note();
}

// FEX(IN) (IEEE Std 421.5-2016 Annex D) and its inverse on each segment.
TEST(ExciterPieces, RectifierAndItsInverse) {
  EXPECT_EQ(RectifierRegulation::fex(-1.0), 1.0);
  EXPECT_NEAR(RectifierRegulation::fex(0.2), 1.0 - 0.577 * 0.2, 1e-15);
  EXPECT_NEAR(RectifierRegulation::fex(0.6), std::sqrt(0.75 - 0.36), 1e-15);
  EXPECT_NEAR(RectifierRegulation::fex(0.9), 1.732 * 0.1, 1e-15);
  EXPECT_EQ(RectifierRegulation::fex(1.2), 0.0);
  const RectifierRegulation r(0.5);
  for (double ifd : {0.0, 1.0, 3.0, 5.0, 7.0}) {
    const double ve = r.source_for(1.5, ifd, "test");
    EXPECT_NEAR(ve * RectifierRegulation::fex(0.5 * ifd / ve), 1.5, 1e-12) << ifd;
  }
}

}  // namespace
}  // namespace lsdae::psse::test
