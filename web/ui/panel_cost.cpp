// web/ui/panel_cost.cpp — the Cost panel: renting the scenario's GPUs on demand or on spot
// against buying them — per hour, per month of busy hours, per million tokens — the
// break-even month, and the cumulative cost of each option by month. Same core calls
// (EstimateCost, CostRecords) and the same numbers as `gpuplan cost`.
#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app.h"
#include "chart.h"
#include "gpuplan/i18n.h"
#include "gpuplan/records.h"
#include "gpuplan/units.h"
#include "tables.h"
#include "theme.h"

namespace gpuplan::ui {

void App::DrawCostInputs() {
  ImGui::PushItemWidth(ImGui::GetFontSize() * 9.0f);
  ImGui::TextColored(Muted(), "%s", Tr("Currency"));
  for (const char* key : {"currency", "fx"}) Field(key);
  ImGui::TextColored(Muted(), "%s", Tr("Renting"));
  for (const char* key : {"price-hour", "spot-overhead", "utilization"}) Field(key);
  ImGui::TextColored(Muted(), "%s", Tr("Owning"));
  for (const char* key : {"buy-usd", "years", "kwh-usd", "pue"}) Field(key);
  ImGui::TextColored(Muted(), "%s", Tr("Rack and cooling"));
  Field("cooling");
  if (scenario_.cooling != "none")
    for (const char* key : {"rack-kw", "gpus-per-server", "host-kw", "rack-pue", "throttle"}) Field(key);
  ImGui::PopItemWidth();
}

void App::DrawCost() {
  if (!session_.Fit().ok()) {
    ImGui::TextColored(Bad(), "%s", session_.Fit().error().c_str());
    return;
  }
  if (!session_.Speed().ok()) {
    ImGui::TextColored(Warn(), "%s", TrF("Speed: {0}", {session_.Speed().error()}).c_str());
    return;
  }
  const CostEstimate& c = CostNow();
  if (embed_.empty()) {
    DrawCostInputs();
    ImGui::Separator();
  }
  const View& v = *FindView("cost");
  const Report& report = CachedReport(v);
  Paragraph(report.title);
  for (const std::string& l : report.lines) Paragraph(l);
  // Cumulative cost by month: renting grows from zero; owning starts at the purchase.
  std::vector<Series> series;
  auto add = [&](const std::vector<double>& usd, ImU32 color, const char* name) {
    if (usd.empty()) return;
    std::vector<double> y(usd.size());
    std::transform(usd.begin(), usd.end(), y.begin(), [&](double x) { return x * c.money.per_usd; });
    series.push_back(Series{c.months, y, {}, {}, color, name, {}});
  };
  add(c.cloud_total, IM_COL32(90, 150, 240, 255), Tr("on demand"));
  add(c.spot_total, IM_COL32(240, 160, 60, 255), Tr("spot"));
  add(c.owned_total, IM_COL32(80, 190, 120, 255), Tr("owned"));
  const std::string y_label = TrF("{0} cumulative", {MoneySymbol(c.money)});
  Chart("cost-chart", series, Tr("months"), y_label.c_str(), ImGui::GetFontSize() * 12, XAxis::kLinear);
  Track("cost-chart");

  // The rows `gpuplan cost` prints: each option per GPU-hour, hour, month and 1M tokens.
  for (const std::string& l : report.after) Paragraph(l);  // break-even, spot
  Track("cost-break-even");
  DrawReport(v, report, false, true);
  Track("cost-table");
}

}  // namespace gpuplan::ui
