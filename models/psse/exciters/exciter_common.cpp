// models/psse/exciters/exciter_common.cpp -- see exciter_common.h.
#include "psse/exciters/exciter_common.h"

#include <cstdio>

namespace lsdae::psse {

ComponentInfo exciter_info(const DyrRecord& record) {
  return {record.model, Role::exciter, InitStage::inner_control, record.bus, record.id, record.where()};
}

DcExciterConstants dc_exciter_constants(double vrmax, double vrmin, double ke, double e2, double se2, double efd0,
                                        const QuadraticSaturation& sat, std::string& note) {
  DcExciterConstants c{vrmax, vrmin, ke};
  char text[160];
  note.clear();
  if (vrmax == 0.0) {
    c.vrmax = ke <= 0.0 ? se2 * e2 : (se2 + ke) * e2;
    c.vrmin = -c.vrmax;
    std::snprintf(text, sizeof text, "VRMAX = 0 in the record: VRMAX = %.6g, VRMIN = %.6g (PSS/E's rule)", c.vrmax,
                  c.vrmin);
    note = text;
  }
  if (ke == 0.0 && efd0 != 0.0) {
    c.ke = c.vrmax / (10.0 * efd0) - sat(efd0);
    std::snprintf(text, sizeof text, "KE = 0 in the record: KE = %.6g so that VR starts at VRMAX/10 (PSS/E's rule)",
                  c.ke);
    note += (note.empty() ? "" : "; ") + std::string(text);
  }
  return c;
}

}  // namespace lsdae::psse
