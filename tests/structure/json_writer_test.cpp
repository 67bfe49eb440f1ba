// tests/structure/json_writer_test.cpp -- structure/json_writer.h
#include "structure/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace lsdae::structure {
namespace {

TEST(JsonWriter, EscapesPerRfc8259) {
  EXPECT_EQ(JsonWriter::escape("plain"), "\"plain\"");
  EXPECT_EQ(JsonWriter::escape("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonWriter::escape("line\nnext\ttab\r\b\f"), "\"line\\nnext\\ttab\\r\\b\\f\"");
  EXPECT_EQ(JsonWriter::escape(std::string("nul\0x", 5)), "\"nul\\u0000x\"");
  EXPECT_EQ(JsonWriter::escape("\x1f"), "\"\\u001f\"");
  EXPECT_EQ(JsonWriter::escape("der(θ) → ok"), "\"der(θ) → ok\"");  // UTF-8 copied
}

TEST(JsonWriter, NestedDocumentIsIndented) {
  JsonWriter j;
  j.begin_object();
  j.key("a").value(std::size_t{1});
  j.key("b").begin_array().value("x").value(true).null().end_array();
  j.key("c").begin_object().end_object();
  j.key("d").begin_array().end_array();
  j.key("e").value(-3);
  j.end_object();
  EXPECT_EQ(j.str(),
            "{\n"
            "  \"a\": 1,\n"
            "  \"b\": [\n"
            "    \"x\",\n"
            "    true,\n"
            "    null\n"
            "  ],\n"
            "  \"c\": {},\n"
            "  \"d\": [],\n"
            "  \"e\": -3\n"
            "}");
}

TEST(JsonWriter, NumbersRoundTripAndNonFiniteIsNull) {
  JsonWriter j;
  j.begin_array();
  j.value(0.1).value(0.5).value(1e300).value(-2.0);
  j.value(std::nan("")).value(std::numeric_limits<double>::infinity());
  j.end_array();
  EXPECT_EQ(j.str(), "[\n  0.1,\n  0.5,\n  1e+300,\n  -2,\n  null,\n  null\n]");
}

TEST(JsonWriter, TopLevelScalar) {
  JsonWriter j;
  j.value("only");
  EXPECT_EQ(j.str(), "\"only\"");
}

}  // namespace
}  // namespace lsdae::structure
