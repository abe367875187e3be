// web/ui/panel_compare.cpp — the Compare panel: the whole catalog ranked for the scenario, with
// the filters and the sort as view options (links, exports and the CLI command carry them).
// The same rows as `gpuplan compare`.
#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app.h"
#include "chart.h"
#include "gpuplan/cost.h"
#include "gpuplan/i18n.h"
#include "gpuplan/records.h"
#include "gpuplan/units.h"
#include "tables.h"
#include "theme.h"

namespace gpuplan::ui {

void App::DrawCompare() {
  // The filters are view options: links, the CLI command and the exports carry them; each is
  // drawn from its field (fields.cpp) like the scenario's inputs.
  static const char* const kFilters[] = {"fits",        "vendor",    "min-tps",   "max-ttft",
                                         "max-upfront", "max-month", "max-watts", "currency"};
  ImGui::PushItemWidth(ImGui::GetFontSize() * 7);
  for (size_t i = 0; i < std::size(kFilters); ++i) {
    if (i % 3) ImGui::SameLine();
    Field(kFilters[i]);
    Track((std::string("compare-") + kFilters[i]).c_str());
  }
  ImGui::PopItemWidth();
  ImGui::SameLine();
  ImGui::TextColored(Muted(), "%s", Tr("(0 = no limit)"));
  // The same rows the exports and the CLI give; while a new ranking is due between frames
  // (RankNow), the last one's.
  const bool due = defer_ranking_ && !session_.CompareReady();
  if (due) ranking_wanted_ = true;
  const std::vector<CompareRow> rows = session_.CompareShown(!defer_ranking_);
  if (due)
    ImGui::TextColored(Muted(), "%s",
                       TrF("Ranking the catalog for this scenario... ({0} rows of the last ranking shown)",
                           {std::to_string(rows.size())})
                           .c_str());
  else
    ImGui::TextColored(
        Muted(), "%s",
        TrF("{0} of {1} accelerators shown, ranked in {2} ms; fewest GPUs (1-{3}) that hold the scenario",
            {std::to_string(rows.size()), std::to_string(session_.CompareAll().size()),
             FormatFixed(session_.compare_ms(), 2), std::to_string(kCompareMaxCount)})
            .c_str());

  // The columns are the core's (records.h: CompareColumns), as `gpuplan compare` prints them;
  // the first is drawn as the row's selectable GPU name.
  const std::vector<CompareColumn>& cols = CompareColumns();
  const int ncols = static_cast<int>(cols.size());
  // In a narrow frame (a phone, a blog column) the GPU column keeps a readable width and the
  // table scrolls sideways under it (frozen), instead of squeezing the names to two letters.
  const float em = ImGui::GetFontSize();
  const bool narrow = ImGui::GetContentRegionAvail().x < em * 70;
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable |
                                ImGuiTableFlags_Hideable | (narrow ? ImGuiTableFlags_ScrollX : 0);
  if (!ImGui::BeginTable(narrow ? "compare-narrow" : "compare", ncols, flags,
                         ImVec2(0, ImGui::GetContentRegionAvail().y - em * 3)))  // one table state per layout
    return;
  ImGui::TableSetupScrollFreeze(1, 1);
  const Money money = ScenarioMoney(*catalog_, session_.scenario());
  for (int c = 0; c < ncols; ++c) {
    ImGuiTableColumnFlags cf = cols[c].key == session_.view().sort ? ImGuiTableColumnFlags_DefaultSort : 0;
    if (c == 0) cf |= narrow ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch;
    if (cols[c].order == CompareColumn::Order::kNone) cf |= ImGuiTableColumnFlags_NoSort;
    if (cols[c].hidden) cf |= ImGuiTableColumnFlags_DefaultHide;
    ImGui::TableSetupColumn(CompareColumnTitle(cols[c], money).c_str(), cf, c == 0 && narrow ? em * 13 : 0.0f);
  }
  // Headers one by one, so each reports its rectangle (tests click them to sort).
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < ncols; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    ItemTip(cols[c].help);
    Track((std::string("compare-col:") + cols[c].key).c_str());
  }
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs()) {
    if (specs->SpecsDirty && specs->SpecsCount > 0) {
      const int col = specs->Specs[0].ColumnIndex;
      if (col >= 0 && col < ncols && session_.view().sort != cols[col].key) Edit("sort", cols[col].key);
      specs->SpecsDirty = false;
    }
  }
  // Only the rows in view are drawn (a clipper), and a hidden column's cells are not formatted.
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const CompareRow& r = rows[static_cast<size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (ImGui::Selectable((r.name + "##" + r.gpu).c_str(), r.gpu == scenario_.gpu,
                            ImGuiSelectableFlags_SpanAllColumns) &&
          r.fits) {
        Edit("gpu", r.gpu);
        Edit("tp", std::to_string(r.gpus / std::max(1, scenario_.pp)));
      }
      if (ImGui::IsItemHovered() && (ImGui::TableGetColumnFlags(0) & ImGuiTableColumnFlags_IsHovered))
        ImGui::SetTooltip(
            "%s\n%s%s", r.name.c_str(), r.note.c_str(),  // the other cells show their column's help
            r.fits ? ("\n" + TrF("Click: use {0} x {1} in the scenario", {std::to_string(r.gpus), r.gpu})).c_str()
                   : "");
      for (int c = 1; c < ncols; ++c) {
        if (!ImGui::TableNextColumn()) continue;
        const Cell cell = cols[c].cell(r);
        if (cell.kind == Cell::Kind::kText) ImGui::TextColored(Muted(), "%s", cell.text.c_str());
        else ImGui::TextUnformatted(cell.kind == Cell::Kind::kUnknown ? "-" : cell.text.c_str());
        // An empty cell says why it is empty (no price in the catalog, does not fit...).
        const auto why = cell.kind == Cell::Kind::kUnknown ? r.unknown.find(cols[c].key) : r.unknown.end();
        if (ImGui::IsItemHovered()) ItemTip(why != r.unknown.end() ? why->second : !r.fits ? r.note : cols[c].help);
      }
    }
  }
  ImGui::EndTable();
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  for (const std::string& n : CachedReport(*FindView("compare")).notes) Paragraph(n);  // why cost cells are empty
  ImGui::PopStyleColor();
  DrawCliTwin(*FindView("compare"));
}

// The Serve panel: the workload and the SLA as view options (drawn from their fields, like the
// filters above), then the run's report. A run replays hundreds of requests, tens of ms in wasm:
// it runs between frames (RankNow) and the last run's figures stay up meanwhile.
void App::DrawServe(const View& v) {
  static const char* const kOptions[] = {"rate", "clients", "requests", "lengths", "ttft-sla", "tpot-sla"};
  OptionFields(kOptions, std::size(kOptions), "serve-");
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  Paragraph(Tr("(rate 0 = a closed loop of the clients; SLA 0 = no limit)"));
  ImGui::PopStyleColor();
  if (defer_ranking_ && !session_.ServeReady()) {
    serve_wanted_ = true;
    ImGui::TextColored(Muted(), "%s", Tr("Simulating the requests..."));
    if (auto it = report_cache_.find("serve"); it != report_cache_.end() && it->second.generation != 0)
      DrawReport(v, it->second.report, false);  // the last run's, until this one is ready
    return;
  }
  const Report& r = CachedReport(v);
  // The verdict and the head, then latency against load (one point per task between frames),
  // then the tables.
  for (const std::string& l : r.lines) Paragraph(l);
  const LoadCurve& curve = session_.ServeCurve();
  if (!curve.done) serve_wanted_ = defer_ranking_;
  if (!defer_ranking_)
    while (session_.ServeCurveStep()) {
    }
  if (!curve.points.empty()) {
    const ImU32 blue = IM_COL32(90, 150, 240, 255), red = IM_COL32(220, 80, 80, 255);
    const double top = curve.points.back().rate_rps;
    auto series = [&](bool ttft) {
      Series s{{}, {}, {}, {}, blue, ttft ? "TTFT p90" : "TPOT p90", {}};
      for (const LoadPoint& p : curve.points) {
        s.x.push_back(p.rate_rps);
        s.y.push_back((ttft ? p.ttft_s.p90 : p.tpot_s.p90) * 1000);
        s.out.push_back(p.saturated);
      }
      return s;
    };
    auto sla = [&](double seconds) {
      return Series{{curve.points.front().rate_rps, top}, {seconds * 1000, seconds * 1000}, {}, {}, red, "SLA", {}};
    };
    const float h = ImGui::GetFontSize() * 11;
    const ViewOptions& o = session_.view();
    Paragraph(curve.done ? Tr("Latency against the arrival rate (Poisson; capacity: a full batch's steady throughput)")
                         : Tr("Latency against the arrival rate (computing...)"));
    std::vector<Series> tpot = {series(false)};
    if (o.tpot_sla > 0) tpot.push_back(sla(o.tpot_sla));
    Chart("serve-tpot", tpot, "requests/s", "TPOT p90 ms", h, XAxis::kLinear, Tr("saturated"));
    Track("chart-serve-tpot");
    std::vector<Series> ttft = {series(true)};
    if (o.ttft_sla > 0) ttft.push_back(sla(o.ttft_sla));
    Chart("serve-ttft", ttft, "requests/s", "TTFT p90 ms", h, XAxis::kLinear, Tr("saturated"));
    Track("chart-serve-ttft");
    if (curve.done && curve.knee >= 0)
      Paragraph(o.ttft_sla > 0 || o.tpot_sla > 0
                    ? TrF("knee: {0} requests/s, the highest rate shown within the SLA (capacity {1} requests/s)",
                          {FormatShort(curve.points[static_cast<size_t>(curve.knee)].rate_rps, 2),
                           FormatShort(curve.capacity_rps, 2)})
                    : TrF("knee: {0} requests/s, the highest rate shown before the queue grows (capacity {1} "
                          "requests/s)",
                          {FormatShort(curve.points[static_cast<size_t>(curve.knee)].rate_rps, 2),
                           FormatShort(curve.capacity_rps, 2)}));
  }
  DrawReport(v, r, false, false, 0, /*head=*/false);  // the head is drawn above the charts
}

}  // namespace gpuplan::ui
