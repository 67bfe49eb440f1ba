// runtime/import/manifest_parser.cpp -- see manifest_parser.h.
#include "import/manifest_parser.h"

#include <algorithm>

#include "import/model_description_parser.h"
#include "import/xml_document.h"
#include "lsdae/error.h"

namespace lsdae::import {

namespace {

constexpr const char* kExpectedLsName = "org.fmi-standard.fmi-ls-dae";

// Schema order of shape B's ModelStructure children.
int shape_b_rank(std::string_view element) {
  if (element == "Output") return 0;
  if (element == "ContinuousStateDerivative") return 1;
  if (element == "ClockedState") return 2;
  if (element == "InitialUnknown") return 3;
  if (element == "EventIndicator") return 4;
  if (element == "Residual") return 5;
  if (element == "Invariant") return 6;
  return -1;
}

void parse_residual(const XmlDocument& doc, const pugi::xml_node& node, Manifest& m, Diagnostics& d) {
  ResidualGroup group;
  group.line = doc.line_of(node);
  bool has_formulations = false;
  for (const auto& child : element_children(node)) {
    if (local_name(child.name()) != "Formulation") {
      d.warning(doc.file(), doc.line_of(child),
                "unknown element <" + std::string(local_name(child.name())) + "> in <Residual> is ignored");
      continue;
    }
    has_formulations = true;
    AttributeReader a(doc, child, d);
    Formulation f;
    f.residual = read_unknown(a);
    f.index = a.integer("index");
    group.formulations.push_back(std::move(f));
  }
  AttributeReader a(doc, node, d);
  if (!has_formulations) {
    // Flat residual (shape B, or a shape-A file written the shape-B way).
    if (!a.has("valueReference")) {
      a.error("<Residual> has neither a valueReference nor <Formulation> children",
              "give the residual variable's valueReference");
      return;
    }
    if (m.shape == ManifestShape::draft_0_1)
      a.note("flat <Residual valueReference> in a draft-0.1 manifest (the 1.0.0-alpha.1 spelling); read as a "
             "group of one formulation");
    Formulation f;
    f.residual = read_unknown(a);
    f.index = a.integer("index");
    group.formulations.push_back(std::move(f));
  } else if (a.has("valueReference")) {
    a.warning("<Residual> has both a valueReference and <Formulation> children; the valueReference is ignored");
  }
  if (m.shape == ManifestShape::alpha_1_0_0 && group.formulations.size() > 1)
    d.note(doc.file(), group.line,
           "<Residual> groups " + std::to_string(group.formulations.size()) +
               " <Formulation>s, a draft-0.1 construct in a 1.0.0-alpha.1 manifest; read as a group");
  m.residuals.push_back(std::move(group));
}

// FMI-LS-DAE: "Each <AlgebraicVariable> has only one attribute defining the
// value reference." Other attributes (the Reference-FMUs' Roberts manifest
// writes nominal="7", the value reference of its constant y3_nominal) are
// ignored with a warning that says what the value seems to be.
void warn_extra_attributes(const XmlDocument& doc, const pugi::xml_node& node, const ModelDescription* md,
                           Diagnostics& d) {
  for (const pugi::xml_attribute& attribute : node.attributes()) {
    const std::string_view name = local_name(attribute.name());
    if (name == "valueReference" || std::string_view(attribute.name()).rfind("xmlns", 0) == 0) continue;
    const std::string value = attribute.value();
    std::string seems;
    if (md != nullptr)
      if (auto vr = parse_uint64(value); vr && *vr <= 0xffffffffu)
        if (const Variable* v = md->find(static_cast<ValueReference>(*vr)))
          seems = " (it is the value reference of \"" + v->name + "\")";
    d.warning(doc.file(), doc.line_of(node),
              "<AlgebraicVariable> attribute " + std::string(name) + "=\"" + value +
                  "\" is not defined by FMI-LS-DAE and is ignored" + seems,
              "put " + std::string(name) + " on the variable in modelDescription.xml, where FMI 3.0 defines it");
  }
}

}  // namespace

Manifest parse_manifest(std::string_view xml, const ModelDescription* md, Diagnostics& d) {
  XmlDocument doc(xml, kManifestFile);
  return parse_manifest(doc, md, d);
}

Manifest parse_manifest(const XmlDocument& doc, const ModelDescription* md, Diagnostics& d) {
  pugi::xml_node root = doc.root();
  Manifest m;
  m.root_element = std::string(local_name(root.name()));
  AttributeReader ra(doc, root, d);
  if (m.root_element == "fmiLayeredStandardManifest" || m.root_element == "fmi-ls-dae") {
    m.shape = ManifestShape::draft_0_1;
  } else if (m.root_element == "FMILSManifest") {
    // FMI 3.0's generic layered-standard root (fmi3LSManifest.xsd: "the
    // default root element to use in a layered standard ... if no other
    // suitable root element definition is provided"), renamed
    // fmiLayeredStandardManifest later. Its children are those of shape A.
    m.shape = ManifestShape::draft_0_1;
    ra.note("root <FMILSManifest> (FMI 3.0's generic layered-standard manifest root) is read as a draft-0.1 manifest");
  } else if (m.root_element == "fmiDAEManifest") {
    m.shape = ManifestShape::alpha_1_0_0;
  } else {
    throw Error(ErrorKind::xml, doc.file() + ":" + std::to_string(ra.line()) + ": the root element is <" +
                                    m.root_element +
                                    ">, which is neither an FMI-LS-DAE draft-0.1 manifest "
                                    "(<fmiLayeredStandardManifest>, <fmi-ls-dae>, <FMILSManifest>) nor a "
                                    "1.0.0-alpha.1 one (<fmiDAEManifest>) → "
                                    "re-export the FMU with a supported manifest");
  }
  m.ls_name = ra.text("fmi-ls-name").value_or("");
  m.ls_version = ra.text("fmi-ls-version").value_or(ra.text("version").value_or(""));
  if (m.shape == ManifestShape::draft_0_1 && m.ls_name != kExpectedLsName)
    ra.warning("fmi-ls-name is \"" + m.ls_name + "\", expected \"" + kExpectedLsName +
               "\"; read as an FMI-LS-DAE manifest anyway");
  if (m.ls_version.empty())
    d.note(doc.file(), ra.line(), "the manifest states no version; read as " + std::string(to_string(m.shape)));

  if (auto by_name = ra.text("enableDAEModeVariable")) {
    m.enable_dae_name = *by_name;
    m.enable_dae_line = ra.line();
    if (md != nullptr) {
      if (const Variable* v = md->find(*by_name)) m.enable_dae = v->value_reference;
      else
        ra.error("enableDAEModeVariable=\"" + *by_name + "\" names no variable of modelDescription.xml",
                 "name the Boolean structural parameter that switches DAE mode on");
    }
  }

  bool saw_enable_parameter = false;
  for (const auto& child : element_children(root)) {
    std::string_view element = local_name(child.name());
    AttributeReader a(doc, child, d);
    if (element == "EnableDAE" || element == "EnableDAEParameter") {
      saw_enable_parameter = true;
      if (m.enable_dae)
        a.warning("a second DAE enable switch is ignored; the first one (valueReference " +
                  std::to_string(*m.enable_dae) + ") is used");
      else
        m.enable_dae = a.uint32("valueReference", true);
      m.enable_dae_line = a.line();
      if ((element == "EnableDAE") != (m.shape == ManifestShape::draft_0_1))
        a.note("<" + std::string(element) + "> is the other shape's spelling; accepted");
    } else if (element == "AlgebraicVariables") {
      for (const auto& var : element_children(child)) {
        AttributeReader va(doc, var, d);
        if (local_name(var.name()) != "AlgebraicVariable") {
          va.warning("unknown element <" + va.element() + "> in <AlgebraicVariables> is ignored");
          continue;
        }
        if (auto vr = va.uint32("valueReference", true)) m.algebraic_variables.push_back({*vr, va.line()});
        warn_extra_attributes(doc, var, md, d);
      }
    } else if (element == "ModelStructure") {
      int last_rank = -1;
      bool order_reported = false;
      for (const auto& s : element_children(child)) {
        std::string_view name = local_name(s.name());
        int rank = shape_b_rank(name);
        // The 1.0.0-alpha.1 schema fixes the order (an xs:sequence); lsdae
        // reads any order, so a conformance error, reported once.
        if (m.shape == ManifestShape::alpha_1_0_0 && rank >= 0 && rank < last_rank && !order_reported) {
          d.conformance(doc.file(), doc.line_of(s),
                    "<" + std::string(name) + "> comes after a later kind of element; the 1.0.0-alpha.1 schema orders "
                    "ModelStructure as Output, ContinuousStateDerivative, ClockedState, InitialUnknown, "
                    "EventIndicator, Residual, Invariant",
                    "reorder the elements (lsdae reads them anyway)");
          order_reported = true;
        }
        last_rank = std::max(last_rank, rank);
        if (name == "Output") m.structure.outputs.push_back(read_unknown(doc, s, d));
        else if (name == "ContinuousStateDerivative") m.structure.continuous_state_derivatives.push_back(read_unknown(doc, s, d));
        else if (name == "ClockedState") m.structure.clocked_states.push_back(read_unknown(doc, s, d));
        else if (name == "InitialUnknown") m.structure.initial_unknowns.push_back(read_unknown(doc, s, d));
        else if (name == "EventIndicator") m.structure.event_indicators.push_back(read_unknown(doc, s, d));
        else if (name == "Residual") parse_residual(doc, s, m, d);
        else if (name == "Invariant") m.invariants.push_back(read_unknown(doc, s, d));
        else
          d.warning(doc.file(), doc.line_of(s),
                    "unknown element <" + std::string(name) + "> in the manifest's <ModelStructure> is ignored");
      }
    } else if (element == "Annotations") {
      // tool-specific
    } else {
      a.warning("unknown element <" + std::string(element) + "> in the manifest is ignored");
    }
  }
  // 1.0.0-alpha.1 requires the element; without it lsdae reads a DAE-only FMU:
  // a conformance error (lsdae/diagnostics.h).
  if (m.shape == ManifestShape::alpha_1_0_0 && !saw_enable_parameter && !m.enable_dae)
    d.conformance(doc.file(), ra.line(),
              "a 1.0.0-alpha.1 manifest requires <EnableDAEParameter>; none is given, so the FMU is taken to be in "
              "DAE mode from the start",
              "add <EnableDAEParameter valueReference=\"...\"/> naming the Boolean structural parameter");
  return m;
}

}  // namespace lsdae::import
