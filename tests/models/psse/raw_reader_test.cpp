// tests/models/psse/raw_reader_test.cpp -- the .raw and .dyr readers on
// every PSS/E file in ../shared/data/grids/psse, on hand-written version-34
// snippets, and one message per malformed input.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "psse/io/dyr_reader.h"
#include "psse/io/psse_text.h"
#include "psse/io/raw_reader.h"

namespace lsdae::psse {
namespace {

const std::string kData = LSDAE_PSSE_DATA_DIR;

std::string message_of(const std::string& text, int version = 0) {
  try {
    parse_raw(text, "case.raw", version);
  } catch (const TextError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string dyr_message(const std::string& text) {
  try {
    parse_dyr(text, "case.dyr");
  } catch (const TextError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(RawReader, ThreeBusVersion33) {
  const RawCase rc = read_raw(kData + "/GENROU/ThreeBusMulti.raw");
  EXPECT_EQ(rc.version, 33);
  EXPECT_DOUBLE_EQ(rc.sbase, 100.0);
  EXPECT_DOUBLE_EQ(rc.frequency, 60.0);
  ASSERT_EQ(rc.buses.size(), 3u);
  EXPECT_EQ(rc.buses[2].number, 103);
  EXPECT_EQ(rc.buses[2].name, "BUS 3");
  EXPECT_DOUBLE_EQ(rc.buses[2].vm, 0.99341);
  EXPECT_DOUBLE_EQ(rc.buses[2].va, -8.7697);
  ASSERT_EQ(rc.loads.size(), 1u);
  EXPECT_DOUBLE_EQ(rc.loads[0].pl, 250.0);
  ASSERT_EQ(rc.generators.size(), 2u);
  EXPECT_EQ(rc.generators[1].id, "1");
  EXPECT_DOUBLE_EQ(rc.generators[1].zx, 0.25);
  EXPECT_DOUBLE_EQ(rc.generators[1].mbase, 100.0);
  ASSERT_EQ(rc.branches.size(), 3u);
  EXPECT_DOUBLE_EQ(rc.branches[2].x, 0.12);
  EXPECT_TRUE(rc.transformers.empty());
}

TEST(RawReader, TvcVersion32WithTransformersAndShunt) {
  const RawCase rc = read_raw(kData + "/EXST1/TVC_System_32.raw");
  EXPECT_EQ(rc.version, 32);
  ASSERT_EQ(rc.buses.size(), 4u);
  ASSERT_EQ(rc.fixed_shunts.size(), 1u);
  EXPECT_DOUBLE_EQ(rc.fixed_shunts[0].bl, 600.0);
  ASSERT_EQ(rc.transformers.size(), 2u);
  const RawTransformer& t = rc.transformers[0];
  EXPECT_EQ(t.i, 2);
  EXPECT_EQ(t.j, 4);
  EXPECT_FALSE(t.three_winding());
  EXPECT_DOUBLE_EQ(t.x12, 0.088);
  EXPECT_DOUBLE_EQ(t.sbase12, 550.0);
  EXPECT_DOUBLE_EQ(t.w[0].windv, 1.0);
  EXPECT_DOUBLE_EQ(t.w[1].windv, 1.04);
  EXPECT_EQ(rc.transformers[1].w[0].cod, 1);
  EXPECT_DOUBLE_EQ(rc.transformers[1].w[0].windv, 0.99);
  bool area_noted = false;
  for (const auto& n : rc.notes) area_noted = area_noted || n.find("area data: 1 line") != std::string::npos;
  EXPECT_TRUE(area_noted);
}

TEST(RawReader, LargeCases) {
  const RawCase a = read_raw(kData + "/no_reference/ACTIVSg2000/ACTIVSg2000.RAW");
  EXPECT_EQ(a.version, 33);
  EXPECT_EQ(a.buses.size(), 2000u);
  EXPECT_EQ(a.generators.size(), 544u);
  EXPECT_EQ(a.loads.size(), 1350u);
  EXPECT_EQ(a.branches.size(), 2345u);
  EXPECT_EQ(a.transformers.size(), 861u);
  EXPECT_EQ(a.switched_shunts.size(), 153u);
  EXPECT_EQ(a.buses[0].name, "ODESSA 2 0");
  const RawCase w = read_raw(kData + "/no_reference/WECC240/240busWECC_2018_PSS33.raw");
  EXPECT_EQ(w.version, 32);  // the file name says 33, its header 32
  EXPECT_GT(w.buses.size(), 200u);
}

TEST(RawReader, EveryShippedFileReads) {
  for (const auto& e : std::filesystem::recursive_directory_iterator(kData)) {
    const std::string ext = e.path().extension().string();
    if (ext == ".raw" || ext == ".RAW") {
      EXPECT_NO_THROW(read_raw(e.path().string())) << e.path();
    }
    if (ext == ".dyr") {
      EXPECT_NO_THROW(read_dyr(e.path().string())) << e.path();
    }
  }
}

// A version-34 case written by hand: system-wide data, 12 ratings and a name
// in the branch record, a system switching device, a three-winding
// transformer with 27-field winding lines (NOD), a "@!" column header that
// reorders nothing but names the fields.
const char* kV34 =
    "0, 100.00, 34, 0, 1, 50.00 / PSS(R)E 34 RAW created by hand\n"
    "Title one\n"
    "Title two\n"
    "GENERAL, THRSHZ=0.0002, PQBRAK=0.6, BLOWUP=5.0\n"
    "RATING, 1, \"RATE1 \", \"RATING SET 1\"\n"
    "0 / END OF SYSTEM-WIDE DATA, BEGIN BUS DATA\n"
    "@!   I,'NAME',   BASKV, IDE,AREA,ZONE,OWNER, VM,        VA,    NVHI,   NVLO,   EVHI,   EVLO\n"
    "1,'ONE', 230.0, 3, 1, 1, 1, 1.02, 0.0, 1.1, 0.9, 1.1, 0.9\n"
    "2,'TWO', 230.0, 1, 1, 1, 1, 1.00, -2.0, 1.1, 0.9, 1.1, 0.9\n"
    "3,'THREE', 13.8, 1, 1, 1, 1, 1.00, -3.0, 1.1, 0.9, 1.1, 0.9\n"
    "4,'FOUR', 69.0, 1, 1, 1, 1, 1.00, -3.0, 1.1, 0.9, 1.1, 0.9\n"
    "0 / END OF BUS DATA, BEGIN LOAD DATA\n"
    "2,'1 ',1,1,1, 50.0, 10.0, 0.0, 0.0, 0.0, 0.0, 1,1,0, 0.0, 0.0, 0\n"
    "0 / END OF LOAD DATA, BEGIN FIXED SHUNT DATA\n"
    "0 / END OF FIXED SHUNT DATA, BEGIN GENERATOR DATA\n"
    "@!   I,'ID',      PG,        QG,        QT,        QB,     VS,    IREG,     MBASE,     ZR,         ZX\n"
    "1,'1 ', 50.0, 10.0, 99.0, -99.0, 1.02, 0, 120.0, 0.0, 0.3\n"
    "0 / END OF GENERATOR DATA, BEGIN BRANCH DATA\n"
    "1, 2,'1 ', 0.01, 0.1, 0.02,'LINE 1-2', 100,100,100,0,0,0,0,0,0,0,0,0, 0.0,0.001,0.0,0.0, 1,1,0.0\n"
    "0 / END OF BRANCH DATA, BEGIN SYSTEM SWITCHING DEVICE DATA\n"
    "2, 3,'1 ', 0.0005, 0,0,0,0,0,0,0,0,0,0,0,0, 1, 1, 1, 2, 'BRK'\n"
    "0 / END OF SYSTEM SWITCHING DEVICE DATA, BEGIN TRANSFORMER DATA\n"
    "2, 3, 4,'1 ',1,1,1, 0.0, 0.0, 2,'T3W', 1, 1,1.0,0,1.0,0,1.0,0,1.0,'YNyn0', 0\n"
    "0.001, 0.10, 100.0, 0.001, 0.20, 100.0, 0.001, 0.15, 100.0, 1.0, 0.0\n"
    "1.0, 0.0, 0.0, 0,0,0,0,0,0,0,0,0,0,0,0, 0, 0, 0, 1.1, 0.9, 1.1, 0.9, 33, 0, 0.0, 0.0, 0.0\n"
    "1.0, 0.0, 0.0, 0,0,0,0,0,0,0,0,0,0,0,0, 0, 0, 0, 1.1, 0.9, 1.1, 0.9, 33, 0, 0.0, 0.0, 0.0\n"
    "1.0, 0.0, 0.0, 0,0,0,0,0,0,0,0,0,0,0,0, 0, 0, 0, 1.1, 0.9, 1.1, 0.9, 33, 0, 0.0, 0.0, 0.0\n"
    "0 / END OF TRANSFORMER DATA, BEGIN AREA DATA\n"
    "1, 0, 0.0, 10.0, 'AREA'\n"
    "0 / END OF AREA DATA, BEGIN TWO-TERMINAL DC DATA\n"
    "0 / END OF TWO-TERMINAL DC DATA, BEGIN VSC DC LINE DATA\n"
    "0 / END OF VSC DC LINE DATA, BEGIN IMPEDANCE CORRECTION DATA\n"
    "0 / END OF IMPEDANCE CORRECTION DATA, BEGIN MULTI-TERMINAL DC DATA\n"
    "0 / END OF MULTI-TERMINAL DC DATA, BEGIN MULTI-SECTION LINE DATA\n"
    "0 / END OF MULTI-SECTION LINE DATA, BEGIN ZONE DATA\n"
    "0 / END OF ZONE DATA, BEGIN INTER-AREA TRANSFER DATA\n"
    "0 / END OF INTER-AREA TRANSFER DATA, BEGIN OWNER DATA\n"
    "0 / END OF OWNER DATA, BEGIN FACTS DEVICE DATA\n"
    "0 / END OF FACTS DEVICE DATA, BEGIN SWITCHED SHUNT DATA\n"
    "4, 1, 0, 1, 1.05, 0.95, 0, 100.0, '', 25.0, 2, 12.5\n"
    "0 / END OF SWITCHED SHUNT DATA, BEGIN GNE DATA\n"
    "0 / END OF GNE DATA, BEGIN INDUCTION MACHINE DATA\n"
    "0 / END OF INDUCTION MACHINE DATA, BEGIN SUBSTATION DATA\n"
    "0 / END OF SUBSTATION DATA\n"
    "Q\n";

TEST(RawReader, Version34Snippet) {
  const RawCase rc = parse_raw(kV34, "v34.raw");
  EXPECT_EQ(rc.version, 34);
  EXPECT_DOUBLE_EQ(rc.frequency, 50.0);
  EXPECT_DOUBLE_EQ(rc.thrshz, 0.0002);
  EXPECT_DOUBLE_EQ(rc.pqbrak, 0.6);
  ASSERT_EQ(rc.buses.size(), 4u);
  ASSERT_EQ(rc.generators.size(), 1u);
  EXPECT_DOUBLE_EQ(rc.generators[0].mbase, 120.0);
  EXPECT_DOUBLE_EQ(rc.generators[0].zx, 0.3);
  EXPECT_DOUBLE_EQ(rc.generators[0].pt, 9999.0);  // beyond the header's columns: PSS/E's default
  ASSERT_EQ(rc.branches.size(), 2u);
  EXPECT_DOUBLE_EQ(rc.branches[0].b, 0.02);
  EXPECT_DOUBLE_EQ(rc.branches[0].bi, 0.001);  // GI, BI come after NAME and 12 ratings in version 34
  EXPECT_EQ(rc.branches[0].status, 1);
  EXPECT_TRUE(rc.branches[1].switching_device);
  EXPECT_DOUBLE_EQ(rc.branches[1].x, 0.0005);
  ASSERT_EQ(rc.transformers.size(), 1u);
  EXPECT_TRUE(rc.transformers[0].three_winding());
  EXPECT_EQ(rc.transformers[0].k, 4);
  EXPECT_DOUBLE_EQ(rc.transformers[0].x23, 0.20);
  EXPECT_EQ(rc.transformers[0].w[2].ntp, 33);  // after NOD in a 27-field winding line
  ASSERT_EQ(rc.switched_shunts.size(), 1u);
  EXPECT_DOUBLE_EQ(rc.switched_shunts[0].binit, 25.0);
  ASSERT_EQ(rc.switched_shunts[0].blocks.size(), 1u);
  EXPECT_EQ(rc.switched_shunts[0].blocks[0].first, 2);
}

TEST(RawReader, Messages) {
  EXPECT_EQ(message_of(""), "case.raw:1: the file is empty → give a PSS/E raw data file");
  EXPECT_EQ(message_of("0, -100.0, 33\n"),
            "case.raw:1: case identification record: field 2 (SBASE) is not positive → give the system base in MVA");
  EXPECT_EQ(message_of("0, 100.0, 35, 0, 1, 60.0\n"),
            "case.raw:1: case identification record: field 3 (REV) is 35; lsdae reads versions 32, 33 and 34 → convert "
            "the case with PSS/E (rawd), or force a version (raw_version=33) if the layout is that of a supported one");
  const std::string head = "0, 100.0, 33, 0, 1, 60.0\nt1\nt2\n";
  EXPECT_EQ(message_of(head + "1,'A', 138.0, 3, 1, 1, 1, 1.0x, 0.0\n0\n"),
            "case.raw:4: bus record: field 8 (VM) is \"1.0x\", not a number → correct the record");
  EXPECT_EQ(message_of(head + "1,'A', 138.0, 3\n"),
            "case.raw:4: end of file inside the bus data → end each section with a line 0 and the data with Q");
  EXPECT_EQ(message_of(head + "1,'A', 138.0, 3\n0\n2,'1 ', 1,1,1, 10, 5\n0\nQ\n"),
            "case.raw:6: load record: I = 2 is not a bus of the case → add the bus record or correct the number");
  EXPECT_EQ(message_of(head + "1,'A', 138.0, 3\n1,'B', 138.0, 1\n0\nQ\n"),
            "case.raw:5: bus record: field 1 (I) = 1 is already defined at line 4 → give each bus its own number");
  EXPECT_EQ(message_of(head + "1,'A', 138.0, 7\n0\nQ\n"),
            "case.raw:4: bus record: field 4 (IDE) is 7, not 1..4 → correct the bus type");
  EXPECT_EQ(message_of(head + "1,'A, 138.0, 3\n0\nQ\n"),
            "case.raw:4: bus data: a quote is not closed → close the quoted name");
  const std::string buses = head + "1,'A', 138.0, 3\n2,'B', 138.0, 1\n0\n0\n0\n0\n1, 2, '1', 0.0\n0\nQ\n";
  EXPECT_EQ(message_of(buses), "case.raw:10: branch record: field 5 (X) is missing → complete the record");
  EXPECT_EQ(message_of(head + "1,'A', 138.0, 3\n2,'B', 138.0, 1\n0\n0\n0\n0\n0\n1, 2, 0, '1', 1, 4, 1\n0.0, 0.1\n1.0\n1.0\n0\nQ\n"),
            "case.raw:11: transformer record (line 1): field 6 (CZ) is 4, not 1, 2 or 3 → correct the record");
  EXPECT_EQ(message_of(head + "1,'A', 138.0, 3\n2,'B', 138.0, 1\n0\n0\n0\n0\n0\n1, 2, 0, '1'\n0.0, 0.1\n"),
            "case.raw:11: transformer record: 2 of its 4 lines before the end of the file → complete the record");
}

TEST(DyrReader, RecordsAndShapes) {
  const auto records = read_dyr(kData + "/GENROU/ThreeBus_GENROU.dyr");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].model, "GENCLS");
  EXPECT_EQ(records[0].bus, 101);
  EXPECT_EQ(records[1].model, "GENROU");
  EXPECT_EQ(records[1].id, "1");
  ASSERT_EQ(records[1].values.size(), 14u);
  EXPECT_DOUBLE_EQ(records[1].values[1], 0.03);
  EXPECT_EQ(records[1].line, 2);
  EXPECT_EQ(records[1].value_lines.back(), 4);
  const auto wecc = read_dyr(kData + "/no_reference/WECC240/240busWECC_2018_PSS.dyr");
  EXPECT_GT(wecc.size(), 400u);
  EXPECT_EQ(wecc[0].id, "C");  // a bare id
  const auto mixed = parse_dyr("1 'USRMDL' 1 'GENSAL' 1 5 / a comment\n2 'GENCLS', 1, 3.0, 0.0/\n", "x.dyr");
  ASSERT_EQ(mixed.size(), 2u);
  EXPECT_FALSE(mixed[0].numeric);
  EXPECT_EQ(mixed[0].tokens.front(), "GENSAL");
  EXPECT_EQ(mixed[1].values.size(), 2u);
}

TEST(DyrReader, Messages) {
  EXPECT_EQ(dyr_message("'GENCLS' 1 2 /\n"),
            "case.dyr:1: dynamics record: starts with \"GENCLS\", not a bus number → each record is IBUS 'MODEL' ID ... /");
  EXPECT_EQ(dyr_message("1 2 3 /\n"),
            "case.dyr:1: dynamics record: the second field is \"2\", not a model name → quote the model name: 'GENROU'");
  EXPECT_EQ(dyr_message("1 'GENCLS' /\n"),
            "case.dyr:1: dynamics record: GENCLS at bus 1 has no id → each record is IBUS 'MODEL' ID ... /");
  EXPECT_EQ(dyr_message("1 'GENCLS' 1 3.0\n0.0\n"),
            "case.dyr:1: dynamics record: not ended by '/' before the end of the file → end each record with a slash");
  EXPECT_EQ(dyr_message("1 'GENCLS 1 3.0 /\n"), "case.dyr:1: dynamics record: a quote is not closed → close it");
}

}  // namespace
}  // namespace lsdae::psse
