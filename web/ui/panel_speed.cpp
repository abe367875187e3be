// web/ui/panel_speed.cpp — the Speed panel: decode and prefill with their terms, tokens/s
// against batch and context (the session's curves), cost per token. It reads the session's
// caches; nothing is recomputed per frame.
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "app.h"
#include "chart.h"
#include "gpuplan/i18n.h"
#include "gpuplan/units.h"
#include "tables.h"
#include "theme.h"

namespace gpuplan::ui {


void App::DrawSpeed() {
  if (!session_.Fit().ok()) {
    ImGui::TextColored(Warn(), "%s", session_.Fit().error().c_str());
    return;
  }
  if (session_.gpu_probe()) {  // the probe's measured efficiencies instead of the engine's fitted ones
    bool measured = session_.use_measured();
    if (ImGui::Checkbox((std::string(Tr("Use the loaded GPU probe's efficiencies")) + "###measured").c_str(),
                        &measured))
      session_.SetUseMeasured(measured);
    Track("speed-measured");
    ItemTip(
        Tr("gpuplan speed --measured FILE: the probe's read bandwidth and GEMM rate on this GPU in place of the "
           "engine's fitted efficiencies; an upper bound for any engine"));
  }
  if (!session_.Speed().ok()) {
    ImGui::TextColored(Warn(), "%s", session_.Speed().error().c_str());
    return;
  }
  const Band& b = session_.Speed().value().decode_band;
  const float h = ImGui::GetFontSize() * 13;
  auto series = [&](const std::vector<CurvePoint>& pts, bool total, ImU32 color, const char* name) {
    Series s{{}, {}, {}, {}, color, name, {}};
    for (const CurvePoint& p : pts) {
      const double v = total ? p.total : p.per_user;
      s.out.push_back(!p.fits);
      s.x.push_back(p.x);
      s.y.push_back(v);
      s.lo.push_back(v * b.lo);
      s.hi.push_back(v * b.hi);
    }
    return s;
  };
  // The figures first (the rows `gpuplan speed` prints, with the band), then the charts, then
  // the work shown: what `--explain` adds (step terms, cost lines; the curves are the charts).
  const View& v = *FindView("speed");
  ReportOptions options;
  options.explain = true;
  options.curve_tables = false;  // the curves are the charts below
  const Report& r = CachedReport(v, options);
  for (const std::string& l : r.lines) Paragraph(l);
  if (!r.sections.empty()) RecordsTable("speed-figures", r.sections[0].records);
  Track("speed-decode");
  const ImU32 blue = IM_COL32(90, 150, 240, 255), orange = IM_COL32(240, 160, 60, 255);
  const SpeedCurves& curves = session_.Curves();
  ImGui::TextUnformatted(Tr("Tokens/s against batch (concurrent sequences)"));
  Chart("batch",
        {series(curves.batch, true, blue, Tr("all users")), series(curves.batch, false, orange, Tr("per user"))},
        Tr("batch"), "tok/s", h, XAxis::kLog2, Tr("does not fit"));
  Track("chart-batch");
  ImGui::TextUnformatted(Tr("Tokens/s per user against context"));
  Chart("context", {series(curves.context, false, orange, Tr("per user"))}, Tr("context (tokens)"), "tok/s", h,
        XAxis::kLog2, Tr("does not fit"));
  Track("chart-context");
  DrawReport(v, r, false, false, 1);
}

}  // namespace gpuplan::ui
