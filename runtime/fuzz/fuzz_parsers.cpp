// runtime/fuzz/fuzz_parsers.cpp -- libFuzzer target for the XML parsers and
// the validator: lsdae::import::parse_model_description,
// lsdae::import::parse_manifest, lsdae::import::validate and the SSP reader
// lsdae::import::parse_ssd, from raw bytes.
//
// Input layout (so one corpus exercises all three and their cross-references):
//   byte 0, low two bits, selects the mode (the seeds write it as the digit
//   '0', '1' or '2', so they stay text); the rest is the document(s).
//     0  the bytes are a modelDescription.xml; parse it, then validate it
//        without a manifest.
//     1  the bytes are a manifest; parse it against a fixed, valid
//        modelDescription (HelloWorld, below), then validate both.
//     2, 3  the bytes are a modelDescription.xml, the separator kSeparator,
//        then a manifest; parse both (the manifest against the parsed
//        description) and validate them together. Without the separator the
//        whole input is the modelDescription and the manifest is empty.
//   byte 0 with bit 2 set (the digits '4' to '7') overrides the above: the
//   bytes are a SystemStructure.ssd, read by parse_ssd without looking for
//   the FMU files it names (nothing is opened or written).
// lsdae::Error is the parsers' documented way to refuse a document, so it is
// caught; anything else (another exception, a crash, a leak, undefined
// behaviour, a time-out) is a finding. Every diagnostic is formatted, so the
// message-building code runs on hostile values too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "import/manifest_parser.h"
#include "import/model_description_parser.h"
#include "import/ssp/ssd_reader.h"
#include "import/validate.h"
#include "lsdae/error.h"

namespace {

constexpr std::string_view kSeparator = "\n<!--LSDAE-FUZZ-MANIFEST-->\n";

// The HelloWorld FMU's description (models/hello_world), the reference for mode 1.
constexpr std::string_view kHelloWorld = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="HelloWorld" instantiationToken="{fuzz}">
  <ModelExchange modelIdentifier="HelloWorld" providesDirectionalDerivatives="true"/>
  <ModelVariables>
    <Float64 name="time" valueReference="0" causality="independent" variability="continuous"/>
    <Float64 name="x" valueReference="1" causality="local" variability="continuous" initial="exact" start="1"/>
    <Float64 name="der(x)" valueReference="2" causality="local" variability="continuous" initial="calculated" derivative="1"/>
    <Float64 name="y" valueReference="3" causality="local" variability="continuous" initial="approx" start="0"/>
    <Float64 name="z" valueReference="4" causality="local" variability="continuous" initial="approx" start="0"/>
    <Float64 name="g[1]" valueReference="5" causality="local" variability="continuous" initial="calculated"/>
    <Float64 name="g[2]" valueReference="6" causality="local" variability="continuous" initial="calculated"/>
    <Boolean name="daeMode" valueReference="7" causality="structuralParameter" variability="fixed" start="false"/>
    <Int32 name="n" valueReference="8" causality="parameter" variability="fixed" start="1"/>
  </ModelVariables>
  <ModelStructure>
    <ContinuousStateDerivative valueReference="2"/>
    <InitialUnknown valueReference="2"/>
  </ModelStructure>
</fmiModelDescription>
)xml";

// Keeps the message building from being optimised away.
volatile std::size_t g_sink = 0;

void touch(const lsdae::Diagnostics& diagnostics) {
  std::size_t total = 0;
  for (const auto& d : diagnostics.items()) total += d.format().size();
  g_sink = total;
}

void run(std::string_view md_text, std::string_view manifest_text, bool with_manifest) {
  lsdae::Diagnostics diagnostics;
  try {
    lsdae::ModelDescription md = lsdae::import::parse_model_description(md_text, diagnostics);
    lsdae::Manifest manifest;
    if (with_manifest) manifest = lsdae::import::parse_manifest(manifest_text, &md, diagnostics);
    lsdae::import::validate(md, manifest, diagnostics);
  } catch (const lsdae::Error& e) {
    // A refused document: the message must still be well-formed text.
    g_sink = std::string(e.what()).size();
  }
  touch(diagnostics);
}

void run_ssd(std::string_view text) {
  lsdae::Diagnostics diagnostics;
  lsdae::import::SsdContext context;
  context.check_files = false;
  context.base = "/nonexistent";
  try {
    lsdae::SystemDescription system = lsdae::import::parse_ssd(text, context, diagnostics);
    std::size_t total = system.components.size() + system.connections.size() + system.couplings.size();
    for (const auto& c : system.connections) total += c.from.variable.size() + c.to.variable.size();
    g_sink = total;
  } catch (const lsdae::Error& e) {
    g_sink = std::string(e.what()).size();
  }
  touch(diagnostics);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int mode = data[0] & 3;
  std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] & 4) {
    run_ssd(input);
    return 0;
  }
  switch (mode) {
    case 0:
      run(input, {}, false);
      break;
    case 1:
      run(kHelloWorld, input, true);
      break;
    default: {
      std::size_t cut = input.find(kSeparator);
      if (cut == std::string_view::npos) run(input, {}, true);
      else run(input.substr(0, cut), input.substr(cut + kSeparator.size()), true);
      break;
    }
  }
  return 0;
}
