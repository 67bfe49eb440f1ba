// tests/runtime/import/xml_document_test.cpp -- runtime/import/xml_document.cpp.
#include "import/xml_document.h"

#include <gtest/gtest.h>

#include <limits>

#include "lsdae/error.h"

namespace lsdae::import {
namespace {

TEST(XmlDocument, ReportsSyntaxErrorsWithLineAndColumn) {
  try {
    XmlDocument doc("<a>\n  <b>\n</a>\n", "modelDescription.xml");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::xml);
    std::string message = e.what();
    EXPECT_EQ(message.rfind("modelDescription.xml:3:", 0), 0u) << message;
    EXPECT_NE(message.find("malformed XML"), std::string::npos);
  }
}

TEST(XmlDocument, RejectsEmptyDocuments) {
  EXPECT_THROW(XmlDocument("", "m.xml"), Error);
  EXPECT_THROW(XmlDocument("<?xml version=\"1.0\"?>\n", "m.xml"), Error);
}

TEST(XmlDocument, GivesLinesOfElements) {
  XmlDocument doc("<root>\n\n  <child/>\n  <child2\n     a=\"1\"/>\n</root>", "f.xml");
  auto children = element_children(doc.root());
  ASSERT_EQ(children.size(), 2u);
  EXPECT_EQ(doc.line_of(doc.root()), 1);
  EXPECT_EQ(doc.line_of(children[0]), 3);
  EXPECT_EQ(doc.line_of(children[1]), 4);
}

TEST(XmlDocument, MatchesLocalNames) {
  XmlDocument doc(R"(<ns:root xmlns:ns="urn:x" ns:attr="1" plain="2"/>)", "f.xml");
  EXPECT_EQ(local_name(doc.root().name()), "root");
  EXPECT_STREQ(find_attribute(doc.root(), "attr").value(), "1");
  EXPECT_STREQ(find_attribute(doc.root(), "plain").value(), "2");
  EXPECT_TRUE(find_attribute(doc.root(), "missing").empty());
}

TEST(AttributeReader, ReportsMalformedValuesAndKeepsGoing) {
  XmlDocument doc(R"(<e vr="12x" big="4294967296" list="1 2 x" b="yes" r="1e400" ok="7" okl=" 1  2 "/>)", "f.xml");
  Diagnostics d;
  AttributeReader a(doc, doc.root(), d);
  EXPECT_FALSE(a.uint32("vr"));
  EXPECT_FALSE(a.uint32("big"));
  EXPECT_TRUE(a.boolean("b", true));
  EXPECT_FALSE(a.real("r"));
  EXPECT_EQ(a.uint32("ok"), 7u);
  EXPECT_EQ(*a.uint32_list("okl"), (std::vector<std::uint32_t>{1, 2}));
  a.uint32_list("list");
  a.uint32("absent", /*required=*/true);
  ASSERT_EQ(d.count(Severity::error), 6u);
  EXPECT_EQ(d.items()[0].format(),
            "f.xml:1: error: <e> attribute vr=\"12x\" is not an unsigned 32-bit integer → write an unsigned 32-bit "
            "integer");
  EXPECT_NE(d.items()[4].message.find("list=\"x\""), std::string::npos) << d.items()[4].message;
  EXPECT_NE(d.items()[5].message.find("lacks the required attribute absent"), std::string::npos);
}

TEST(ParseNumbers, AcceptXmlSchemaSpellings) {
  EXPECT_EQ(parse_double("1.5e-3"), 1.5e-3);
  EXPECT_EQ(parse_double(" +2 "), 2.0);
  EXPECT_EQ(parse_double("INF"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_double("-INF"), -std::numeric_limits<double>::infinity());
  EXPECT_FALSE(parse_double("1,5"));
  EXPECT_FALSE(parse_double(""));
  EXPECT_EQ(parse_int64("-42"), -42);
  EXPECT_FALSE(parse_int64("4.0"));
  EXPECT_EQ(parse_uint64("18446744073709551615"), 18446744073709551615ull);
  EXPECT_FALSE(parse_uint64("-1"));
}

}  // namespace
}  // namespace lsdae::import
