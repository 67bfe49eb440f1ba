// tests/runtime/import/xml_document_test.cpp -- runtime/import/xml_document.cpp.
#include "import/xml_document.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

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

// A document parsed in the buffer it was given reads as one parsed from a
// copy: the same elements, attributes (escapes resolved), lines and errors.
TEST(XmlDocument, ParsesInPlaceAsFromACopy) {
  const std::string text =
      "<?xml version=\"1.0\"?>\r\n<root a=\"1 &amp; 2\">\r\n  <child name=\"x&lt;y\"/>\n\n  <child2\n b=\"z\"/>\n</root>";
  XmlDocument copied(text, "f.xml");
  XmlDocument in_place(std::string(text), "f.xml", XmlDocument::in_place);
  for (const XmlDocument* doc : {&copied, &in_place}) {
    EXPECT_STREQ(doc->root().attribute("a").value(), "1 & 2");
    auto children = element_children(doc->root());
    ASSERT_EQ(children.size(), 2u);
    EXPECT_STREQ(children[0].attribute("name").value(), "x<y");
    EXPECT_STREQ(children[1].attribute("b").value(), "z");
    EXPECT_EQ(doc->line_of(doc->root()), 2);
    EXPECT_EQ(doc->line_of(children[0]), 3);
    EXPECT_EQ(doc->line_of(children[1]), 5);
  }
  std::string copied_error, in_place_error;
  try {
    XmlDocument("<a>\n  <b>\n</a>\n", "m.xml");
  } catch (const Error& e) {
    copied_error = e.what();
  }
  try {
    XmlDocument(std::string("<a>\n  <b>\n</a>\n"), "m.xml", XmlDocument::in_place);
  } catch (const Error& e) {
    in_place_error = e.what();
  }
  EXPECT_EQ(in_place_error.rfind("m.xml:3:", 0), 0u) << in_place_error;
  EXPECT_EQ(in_place_error, copied_error);
  EXPECT_THROW(XmlDocument(std::string(), "m.xml", XmlDocument::in_place), Error);
}

TEST(XmlDocument, MatchesLocalNames) {
  XmlDocument doc(R"(<ns:root xmlns:ns="urn:x" ns:attr="1" plain="2"/>)", "f.xml");
  EXPECT_EQ(local_name(doc.root().name()), "root");
  EXPECT_STREQ(find_attribute(doc.root(), "attr").value(), "1");
  EXPECT_STREQ(find_attribute(doc.root(), "plain").value(), "2");
  EXPECT_TRUE(find_attribute(doc.root(), "missing").empty());
}

// find_attribute compares local names without measuring every attribute
// first: names that share a beginning or an end with the one asked for, with
// several prefixes or a prefix that is itself the name, must not match.
TEST(XmlDocument, MatchesLocalNamesExactly) {
  XmlDocument doc(R"(<e names="1" nam="2" a:xname="3" name:other="4" b:c:name="5" a:value="6" valueReference="7" )"
                  R"(fmi-ls:fmi-ls-name="8"/>)",
                  "f.xml");
  EXPECT_STREQ(find_attribute(doc.root(), "name").value(), "5") << "the first whose local name is exactly name";
  EXPECT_STREQ(find_attribute(doc.root(), "nam").value(), "2");
  EXPECT_TRUE(find_attribute(doc.root(), "na").empty());
  EXPECT_TRUE(find_attribute(doc.root(), "other:").empty());
  EXPECT_STREQ(find_attribute(doc.root(), "other").value(), "4");
  EXPECT_STREQ(find_attribute(doc.root(), "value").value(), "6");
  EXPECT_STREQ(find_attribute(doc.root(), "valueReference").value(), "7");
  EXPECT_STREQ(find_attribute(doc.root(), "fmi-ls-name").value(), "8");
  EXPECT_STREQ(find_attribute(doc.root(), "xname").value(), "3");
}

// AttributeReader lists an element's attributes once; an element with more
// than it lists is still read whole, prefixes and first-one-wins included.
TEST(AttributeReader, FindsEveryAttributeOfALongElement) {
  std::string xml = "<e";
  for (int k = 0; k < 40; ++k) xml += " p:a" + std::to_string(k) + "=\"" + std::to_string(k) + "\"";
  xml += " q:a3=\"again\" last=\"x\"/>";
  XmlDocument doc(xml, "f.xml");
  Diagnostics d;
  AttributeReader a(doc, doc.root(), d);
  for (int k = 0; k < 40; ++k) EXPECT_EQ(a.uint32("a" + std::to_string(k)), static_cast<std::uint32_t>(k)) << k;
  EXPECT_EQ(a.text("a3"), "3") << "the first one";
  EXPECT_EQ(a.text("last"), "x");
  EXPECT_FALSE(a.has("a40"));
  EXPECT_FALSE(a.has("p:a1")) << "local names only";
  EXPECT_EQ(d.count(Severity::error), 0u);
}

TEST(XmlDocument, CountsLinesOfCrLfAndFinalNewlines) {
  XmlDocument doc("<root>\r\n<a/>\r\n\r\n<b/>\n</root>\n", "f.xml");
  auto children = element_children(doc.root());
  ASSERT_EQ(children.size(), 2u);
  EXPECT_EQ(doc.line_of(children[0]), 2);
  EXPECT_EQ(doc.line_of(children[1]), 4);
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
