#include "chart.h"

#include <algorithm>
#include <cmath>

#include "theme.h"

#include "gpuplan/i18n.h"
#include "gpuplan/units.h"

namespace gpuplan::ui {

namespace {

// 1, 2 or 5 times a power of ten, at least `raw`: gridlines at round numbers.
double NiceStep(double raw) {
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  return raw / mag < 2 ? 2 * mag : raw / mag < 5 ? 5 * mag : 10 * mag;
}

}  // namespace

void Chart(const char* id, const std::vector<Series>& series, const char* x_label, const char* y_label, float height,
           XAxis x_axis, const char* out_note) {
  const bool log_x = x_axis == XAxis::kLog2;
  ImGui::PushID(id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(200.0f, ImGui::GetContentRegionAvail().x);
  double data_max = 0;  // the widest y label sets the left margin
  for (const Series& sr : series)
    for (size_t i = 0; i < sr.y.size(); ++i) data_max = std::max(data_max, sr.hi.empty() ? sr.y[i] : std::max(sr.y[i], sr.hi[i]));
  const float pad_l = ImGui::CalcTextSize(FormatReading(data_max * 1.5).c_str()).x + 10, pad_b = ImGui::GetFontSize() * 2.4f,
              pad_t = 6, pad_r = 12;
  ImGui::InvisibleButton("chart", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0(origin.x + pad_l, origin.y + pad_t), p1(origin.x + width - pad_r, origin.y + height - pad_b);
  double xmin = 1e300, xmax = 0, ymax = 0;
  for (const Series& s : series)
    for (size_t i = 0; i < s.x.size(); ++i) {
      xmin = std::min(xmin, s.x[i]);
      xmax = std::max(xmax, s.x[i]);
      ymax = std::max(ymax, s.hi.empty() ? s.y[i] : std::max(s.y[i], s.hi[i]));
    }
  dl->AddRectFilled(p0, p1, Colors().chart_bg);
  if (!(xmax > xmin) || !(ymax > 0)) {
    dl->AddText(ImVec2(p0.x + 8, p0.y + 8), Colors().text, Tr("no data"));
    ImGui::PopID();
    return;
  }
  // y: a "nice" step so there are 4-6 gridlines.
  const double step = NiceStep(ymax / 5);
  ymax = std::ceil(ymax / step) * step;
  auto X = [&](double x) {
    const double f = log_x ? std::log2(x / xmin) / std::log2(xmax / xmin) : (x - xmin) / (xmax - xmin);
    return p0.x + static_cast<float>(f) * (p1.x - p0.x);
  };
  auto Y = [&](double y) { return p1.y - static_cast<float>(y / ymax) * (p1.y - p0.y); };
  const ImU32 grid = Colors().grid, text = Colors().text;
  for (double y = 0; y <= ymax * 1.0001; y += step) {
    dl->AddLine(ImVec2(p0.x, Y(y)), ImVec2(p1.x, Y(y)), grid);
    const std::string t = FormatReading(y);
    dl->AddText(ImVec2(p0.x - ImGui::CalcTextSize(t.c_str()).x - 4, Y(y) - ImGui::GetFontSize() / 2), text, t.c_str());
  }
  auto x_tick = [&](double x) {
    dl->AddLine(ImVec2(X(x), p0.y), ImVec2(X(x), p1.y), grid);
    const long long v = static_cast<long long>(x);
    const std::string t = v >= 1048576 ? FormatCount(v / 1048576) + "M" : v >= 1024 ? FormatCount(v / 1024) + "k" : FormatCount(v);
    dl->AddText(ImVec2(X(x) - ImGui::CalcTextSize(t.c_str()).x / 2, p1.y + 2), text, t.c_str());
  };
  if (log_x) {
    for (double x = xmin; x <= xmax * 1.0001; x *= 2) x_tick(x);
  } else {
    const double xstep = NiceStep((xmax - xmin) / 6);
    for (double x = std::ceil(xmin / xstep) * xstep; x <= xmax * 1.0001; x += xstep) x_tick(x);
  }
  dl->AddText(ImVec2((p0.x + p1.x - ImGui::CalcTextSize(x_label).x) / 2, p1.y + ImGui::GetFontSize() * 1.2f), text, x_label);
  dl->AddText(ImVec2(p0.x + 4, p0.y + 2), text, y_label);
  // Where the scenario no longer fits in memory: the x range shaded and said so; the points
  // there hollow, their lines thin (the speed it would run at, had it the memory).
  auto out = [](const Series& s, size_t i) { return i < s.out.size() && s.out[i]; };
  for (const Series& s : series) {
    size_t first = s.x.size();
    for (size_t i = 0; i < s.x.size(); ++i)
      if (out(s, i)) {
        first = i;
        break;
      }
    if (first == s.x.size()) continue;
    const float from = first == 0 ? p0.x : (X(s.x[first - 1]) + X(s.x[first])) / 2;
    dl->AddRectFilled(ImVec2(from, p0.y), ImVec2(p1.x, p1.y), Colors().grid);
    const char* note = out_note;
    if (p1.x - from > ImGui::CalcTextSize(note).x + 8)
      dl->AddText(ImVec2(from + 4, p1.y - ImGui::GetFontSize() - 2), text, note);
    break;  // one shade: the series share their x
  }
  for (const Series& s : series) {
    if (!s.lo.empty())
      for (size_t i = 1; i < s.x.size(); ++i) {
        const ImU32 band = (s.color & 0x00FFFFFFu) | 0x30000000u;
        dl->AddQuadFilled(ImVec2(X(s.x[i - 1]), Y(s.hi[i - 1])), ImVec2(X(s.x[i]), Y(s.hi[i])),
                          ImVec2(X(s.x[i]), Y(s.lo[i])), ImVec2(X(s.x[i - 1]), Y(s.lo[i - 1])), band);
      }
    for (size_t i = 1; i < s.x.size(); ++i)
      dl->AddLine(ImVec2(X(s.x[i - 1]), Y(s.y[i - 1])), ImVec2(X(s.x[i]), Y(s.y[i])), s.color, out(s, i) ? 1.0f : 2.0f);
    for (size_t i = 0; i < s.x.size(); ++i) {
      if (out(s, i)) dl->AddCircle(ImVec2(X(s.x[i]), Y(s.y[i])), 3.0f, s.color);
      else dl->AddCircleFilled(ImVec2(X(s.x[i]), Y(s.y[i])), 3.0f, s.color);
    }
  }
  // Legend, top right, on a patch of the background so a line under it does not cross the text.
  float lx = p1.x - 8;
  {
    float w = 0;
    for (const Series& sr : series) w += ImGui::CalcTextSize(sr.name).x + 16;
    dl->AddRectFilled(ImVec2(p1.x - 8 - w, p0.y + 1), ImVec2(p1.x - 2, p0.y + 3 + ImGui::GetFontSize()), Colors().chart_bg);
  }
  for (auto it = series.rbegin(); it != series.rend(); ++it) {
    const float w = ImGui::CalcTextSize(it->name).x;
    lx -= w;
    dl->AddText(ImVec2(lx, p0.y + 2), it->color, it->name);
    lx -= 16;
  }
  if (hovered) {
    const float mx = ImGui::GetIO().MousePos.x;
    std::string tip;
    for (const Series& s : series) {
      size_t best = 0;
      for (size_t i = 1; i < s.x.size(); ++i)
        if (std::abs(X(s.x[i]) - mx) < std::abs(X(s.x[best]) - mx)) best = i;
      if (s.x.empty()) continue;
      if (tip.empty())
        tip = std::string(x_label) + " " + (log_x ? FormatCount(static_cast<long long>(s.x[best])) : FormatShort(s.x[best], 1)) +
              "\n";
      tip += std::string(s.name) + ": " + FormatReading(s.y[best]) + " " + y_label +
             (s.lo.empty() ? "" : TrF(" (band {0}-{1})", {FormatReading(s.lo[best]), FormatReading(s.hi[best])})) +
             (out(s, best) ? std::string(" - ") + out_note : std::string()) + "\n";
    }
    ImGui::SetTooltip("%s", tip.c_str());
  }
  ImGui::PopID();
}

void Scatter(const char* id, const std::vector<ScatterPoint>& points, const char* x_label, const char* y_label,
             float height, double x_limit, std::string* hovered_label) {
  ImGui::PushID(id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(200.0f, ImGui::GetContentRegionAvail().x);
  double xmax = x_limit, ymax = 0;
  for (const ScatterPoint& p : points) xmax = std::max(xmax, p.x), ymax = std::max(ymax, p.y);
  const float pad_l = ImGui::CalcTextSize(FormatReading(ymax * 1.5).c_str()).x + 10,
              pad_b = ImGui::GetFontSize() * 2.4f, pad_t = 6, pad_r = 12;
  ImGui::InvisibleButton("chart", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0(origin.x + pad_l, origin.y + pad_t), p1(origin.x + width - pad_r, origin.y + height - pad_b);
  dl->AddRectFilled(p0, p1, Colors().chart_bg);
  if (points.empty() || !(xmax > 0) || !(ymax > 0)) {
    dl->AddText(ImVec2(p0.x + 8, p0.y + 8), Colors().text, Tr("no data"));
    ImGui::PopID();
    return;
  }
  // Both axes from 0, at round steps.
  const double ystep = NiceStep(ymax / 5), xstep = NiceStep(xmax * 1.05 / 6);
  ymax = std::ceil(ymax * 1.05 / ystep) * ystep, xmax = std::ceil(xmax * 1.05 / xstep) * xstep;
  auto X = [&](double x) { return p0.x + static_cast<float>(x / xmax) * (p1.x - p0.x); };
  auto Y = [&](double y) { return p1.y - static_cast<float>(y / ymax) * (p1.y - p0.y); };
  const ImU32 grid = Colors().grid, text = Colors().text;
  for (double y = 0; y <= ymax * 1.0001; y += ystep) {
    dl->AddLine(ImVec2(p0.x, Y(y)), ImVec2(p1.x, Y(y)), grid);
    const std::string t = FormatReading(y);
    dl->AddText(ImVec2(p0.x - ImGui::CalcTextSize(t.c_str()).x - 4, Y(y) - ImGui::GetFontSize() / 2), text, t.c_str());
  }
  for (double x = xstep; x <= xmax * 1.0001; x += xstep) {  // 0 is the y axis's
    dl->AddLine(ImVec2(X(x), p0.y), ImVec2(X(x), p1.y), grid);
    const std::string t = FormatReading(x);
    const float w = ImGui::CalcTextSize(t.c_str()).x;
    dl->AddText(ImVec2(std::min(X(x) - w / 2, p1.x + pad_r - w), p1.y + 2), text, t.c_str());
  }
  dl->AddText(ImVec2((p0.x + p1.x - ImGui::CalcTextSize(x_label).x) / 2, p1.y + ImGui::GetFontSize() * 1.2f), text,
              x_label);
  dl->AddText(ImVec2(p0.x + 4, p0.y + 2), text, y_label);
  if (x_limit > 0) {  // the limit: a vertical line, the region past it shaded
    dl->AddRectFilled(ImVec2(X(x_limit), p0.y), p1, Colors().grid);
    dl->AddLine(ImVec2(X(x_limit), p0.y), ImVec2(X(x_limit), p1.y), IM_COL32(220, 80, 80, 255), 2.0f);
  }
  // The linked points (the Pareto front) joined in x order, then every point.
  std::vector<const ScatterPoint*> front;
  for (const ScatterPoint& p : points)
    if (p.linked) front.push_back(&p);
  std::sort(front.begin(), front.end(), [](const ScatterPoint* a, const ScatterPoint* b) { return a->x < b->x; });
  for (size_t i = 1; i < front.size(); ++i)
    dl->AddLine(ImVec2(X(front[i - 1]->x), Y(front[i - 1]->y)), ImVec2(X(front[i]->x), Y(front[i]->y)), front[i]->color,
                2.0f);
  const float r = ImGui::GetFontSize() * 0.3f;
  for (const ScatterPoint& p : points) {
    if (p.hollow)
      dl->AddCircle(ImVec2(X(p.x), Y(p.y)), r, p.color, 0, 1.5f);
    else
      dl->AddCircleFilled(ImVec2(X(p.x), Y(p.y)), r, p.color);
  }
  if (hovered) {  // the nearest point's label
    const ImVec2 m = ImGui::GetIO().MousePos;
    const ScatterPoint* best = nullptr;
    float d2 = 1e30f;
    for (const ScatterPoint& p : points) {
      const float dx = X(p.x) - m.x, dy = Y(p.y) - m.y;
      if (dx * dx + dy * dy < d2) d2 = dx * dx + dy * dy, best = &p;
    }
    if (best) {
      ImGui::SetTooltip("%s", best->label.c_str());
      if (hovered_label) *hovered_label = best->label;
    }
  }
  ImGui::PopID();
}

}  // namespace gpuplan::ui
