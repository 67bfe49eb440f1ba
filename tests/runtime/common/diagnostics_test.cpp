// tests/runtime/common/diagnostics_test.cpp -- runtime/common/diagnostics.cpp:
// formatting, counting, and the summary of repeated diagnostics.
#include "lsdae/diagnostics.h"

#include <gtest/gtest.h>

#include <string>

namespace lsdae {
namespace {

const std::string kEllipsis = "\xe2\x80\xa6";

TEST(Diagnostics, FormatsFileLineSeverityMessageAndHint) {
  Diagnostic d{Severity::warning, "modelDescription.xml", 12, "something odd", "fix it"};
  EXPECT_EQ(d.format(), "modelDescription.xml:12: warning: something odd → fix it");
  Diagnostic bare{Severity::error, "", 0, "no file", ""};
  EXPECT_EQ(bare.format(), "error: no file");
}

TEST(Diagnostics, KeepsTheFirstFewOfAKindAndCountsTheRest) {
  Diagnostics d;
  for (int vr = 100; vr < 112; ++vr)
    d.error("modelDescription.xml", 7, "<Output> depends on valueReference " + std::to_string(vr) +
                                           ", which references no variable",
            "fix the dependencies list");
  ASSERT_EQ(d.items().size(), Diagnostics::kKeptPerKind + 1);
  EXPECT_EQ(d.items()[0].message, "<Output> depends on valueReference 100, which references no variable");
  EXPECT_EQ(d.items()[4].message, "<Output> depends on valueReference 104, which references no variable");
  const Diagnostic& summary = d.items()[5];
  EXPECT_EQ(summary.message, kEllipsis + " and 7 more like this");
  EXPECT_EQ(summary.more_like_this, 7u);
  EXPECT_EQ(summary.severity, Severity::error);
  EXPECT_EQ(summary.format(), "modelDescription.xml: error: " + kEllipsis + " and 7 more like this");
  EXPECT_EQ(d.count(Severity::error), 12u) << "every diagnostic is counted";
  EXPECT_TRUE(d.has_errors());
}

TEST(Diagnostics, NamesAndElementsDoNotMakeADifferentKind) {
  Diagnostics d;
  for (int k = 0; k < 8; ++k)
    d.warning("modelDescription.xml", k + 1,
              "<ContinuousStateDerivative valueReference=\"" + std::to_string(k) + "\"> for \"der(x" +
                  std::to_string(k) + ")\" lists \"x" + std::to_string(k) + "\" twice");
  EXPECT_EQ(d.items().size(), 6u);
  EXPECT_EQ(d.items().back().more_like_this, 3u);
  EXPECT_EQ(d.count(Severity::warning), 8u);
}

TEST(Diagnostics, DifferentRulesSeveritiesAndFilesStayApart) {
  Diagnostics d;
  for (int k = 0; k < 6; ++k) {
    d.warning("modelDescription.xml", 1, "variable \"v" + std::to_string(k) + "\" has no unit");
    d.warning("modelDescription.xml", 1, "variable \"v" + std::to_string(k) + "\" has no description");
    d.error("modelDescription.xml", 1, "variable \"v" + std::to_string(k) + "\" has no unit");
    d.warning("fmi-ls-manifest.xml", 1, "variable \"v" + std::to_string(k) + "\" has no unit");
  }
  // Four kinds of six: five kept and one summary of one each.
  EXPECT_EQ(d.items().size(), 4u * 6u);
  EXPECT_EQ(d.count(Severity::warning), 18u);
  EXPECT_EQ(d.count(Severity::error), 6u);
}

TEST(Diagnostics, TheSummaryFollowsTheLastKeptDiagnosticOfItsKind) {
  // Two kinds interleaved, as one dependencies loop reports "twice" and "not a known".
  Diagnostics d;
  for (int k = 0; k < 9; ++k) {
    d.warning("m.xml", 3, "lists \"x\" twice");
    d.warning("m.xml", 3, "depends on \"y" + std::to_string(k) + "\", which is not a known", "list knowns");
  }
  const auto& items = d.items();
  ASSERT_EQ(items.size(), 12u);
  EXPECT_EQ(items[8].message, "lists \"x\" twice");
  EXPECT_EQ(items[9].message, kEllipsis + " and 4 more like this") << "right after the fifth \"twice\"";
  EXPECT_EQ(items[10].message, "depends on \"y4\", which is not a known");
  EXPECT_EQ(items[11].message, kEllipsis + " and 4 more like this");
}

TEST(Diagnostics, CopyingThroughAddKeepsTheCounts) {
  // validate_command re-adds the items it keeps; the counts must survive.
  Diagnostics d;
  for (int k = 0; k < 20; ++k) d.error("m.xml", k, "bad value " + std::to_string(k));
  d.warning("binaries/x86_64-linux/m.so", 0, "the FMU has no binary for this platform");
  Diagnostics kept;
  for (const auto& item : d.items())
    if (item.severity == Severity::error) kept.add(item);
  EXPECT_EQ(kept.count(Severity::error), 20u);
  EXPECT_EQ(kept.count(Severity::warning), 0u);
  EXPECT_EQ(kept.items().size(), 6u);
  EXPECT_EQ(kept.items().back().more_like_this, 15u);
  Diagnostics appended;
  appended.warning("x.xml", 1, "first");
  appended.append(d);
  EXPECT_EQ(appended.count(Severity::error), 20u);
  EXPECT_EQ(appended.count(Severity::warning), 2u);
  EXPECT_EQ(appended.items().size(), 1u + 6u + 1u);
}

TEST(Diagnostics, AMillionRepeatsKeepAHandful) {
  Diagnostics d;
  for (int k = 0; k < 1000000; ++k)
    d.warning("modelDescription.xml", 10, "<ContinuousStateDerivative> for \"der(x)\" lists \"x\" twice");
  EXPECT_EQ(d.items().size(), 6u);
  EXPECT_EQ(d.items()[5].message, kEllipsis + " and 999995 more like this");
  EXPECT_EQ(d.count(Severity::warning), 1000000u);
}

}  // namespace
}  // namespace lsdae
