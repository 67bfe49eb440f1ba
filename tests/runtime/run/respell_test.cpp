// tests/runtime/run/respell_test.cpp -- lsdae's messages in the caller's
// words (run/respell.h): options with and without values, flags, a door's
// own words, and the lsdae program's commands left as they are.
#include <gtest/gtest.h>

#include "run/respell.h"

namespace lsdae::run {
namespace {

TEST(Respell, OptionsBecomeTheCallersKeys) {
  const std::string m = "ida: too much work → raise --max-steps or shorten the output interval; loosen --rtol/--atol";
  EXPECT_EQ(respell(m, Door::cli), m);
  EXPECT_EQ(respell(m, Door::c),
            "ida: too much work → raise options.max_steps or shorten the output interval; loosen options.rtol/options.atol");
  EXPECT_EQ(respell(m, Door::python),
            "ida: too much work → raise max_steps= or shorten the output interval; loosen rtol=/atol=");
}

TEST(Respell, ValuesGoWithTheirOption) {
  EXPECT_EQ(respell("use --constraints project", Door::c), "use options.constraints = LSDAE_CONSTRAINTS_PROJECTION");
  EXPECT_EQ(respell("use --constraints project", Door::python), "use constraints=\"project\"");
  EXPECT_EQ(respell("(try --jacobian check), or --jacobian fd.", Door::c),
            "(try options.jacobian = LSDAE_JACOBIAN_CHECK), or options.jacobian = LSDAE_JACOBIAN_FINITE_DIFFERENCES.");
  EXPECT_EQ(respell("held at --max-step 1e-05, so", Door::python), "held at max_step=1e-05, so");
  EXPECT_EQ(respell("drop --no-reselect", Door::c), "drop options.reselect = 0");
  EXPECT_EQ(respell("drop --no-reselect", Door::python), "drop reselect=False");
  EXPECT_EQ(respell("→ run with --eliminate off", Door::c), "→ run with options.eliminate = 0");
}

TEST(Respell, TheDoorsOwnWordsAndCommandsInBackticks) {
  EXPECT_EQ(respell("give start values (--set) or --input", Door::c, simulation_words(Door::c)),
            "give start values (lsdae_set_text) or lsdae_set_input_file");
  EXPECT_EQ(respell("--metric \"max:x\": no variable", Door::python, sweep_words(Door::python)),
            "metrics= \"max:x\": no variable");
  const std::string command = "→ `lsdae info --structure` lists them; --rtol";
  EXPECT_EQ(respell(command, Door::c), "→ `lsdae info --structure` lists them; options.rtol");
  EXPECT_EQ(respell("an unknown --flag-of-nobody stays", Door::c), "an unknown --flag-of-nobody stays");
  EXPECT_EQ(respell("x--rtol is no flag", Door::c), "x--rtol is no flag");
}

}  // namespace
}  // namespace lsdae::run
