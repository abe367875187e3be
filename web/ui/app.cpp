// web/ui/app.cpp — the App: the session's state through the page (links, themes, imports),
// the tab bar from the views table, embed mode and the export bar. Each panel has its own
// file (panel_*.cpp); every input is drawn by fields.cpp.
//
// Index:
//   state: LoadState, StateHash, Edit, ImportText, ResultJson
//   Frame: the tab bar (views.h), DrawPanel, DrawViewBody, DrawReport
//   embed mode, exports: DrawEmbedded, ExportText, DrawExportBar, DrawWithInputs
#include "app.h"
#include "gpuplan/i18n.h"
#include "tables.h"
#include "theme.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "gpuplan/model.h"
#include "gpuplan/presets.h"
#include "gpuplan/records.h"
#include "gpuplan/report.h"
#include "gpuplan/units.h"
#include "gpuplan/version.h"

namespace gpuplan::ui {

App::App() : session_([&] {
  const Result<Catalog>& loaded = EmbeddedCatalog();
  if (!loaded.ok()) catalog_error_ = loaded.error();
  return loaded.ok() ? loaded.value() : Catalog{};
}()) {
  if (session_.catalog().sources_elsewhere) sources_state_ = "elsewhere";
}

void App::RequestSources() {
  if (sources_state_ != "elsewhere" || !host_.load_sources) return;
  sources_state_ = "loading";
  host_.load_sources();
}

// Words the page's embedded catalog leaves to catalog-sources.json (cmake/catalog_lean.py):
// asked for once the mouse is on the item that shows them.
std::string App::Words(const std::string& text) {
  if (!text.empty() || (sources_state_ != "elsewhere" && sources_state_ != "loading")) return text;
  if (ImGui::IsItemHovered()) RequestSources();
  return Tr("(loading from the catalog's sources...)");
}

void App::LoadState(std::string_view hash) {
  DecodedState decoded = session_.LoadState(hash);
  notices_ = decoded.dropped;
  for (std::string& n : decoded.notices) notices_.push_back(std::move(n));  // (not insert: ~0.4 KB of wasm)
  field_errors_.clear();
  requested_tab_ = session_.view().tab;
  embed_.clear();
  if (auto it = decoded.page.find("embed"); it != decoded.page.end()) {
    const View* v = FindView(it->second);
    if (v && v->embeddable) {
      embed_ = v->id;
    } else {
      std::string list;
      for (const View& e : Views())
        if (e.embeddable) list += (list.empty() ? "" : ", ") + std::string(e.id);
      notices_.push_back(TrF("embed: '{0}' is not a panel to embed ({1})", {it->second, list}));
    }
  }
  compact_ = false;
  if (auto it = decoded.page.find("compact"); it != decoded.page.end()) {
    if (it->second == "1" || it->second == "0") compact_ = it->second == "1";
    else
      notices_.push_back(TrF("compact: '{0}' is not 1 or 0", {it->second}));
  }
  theme_ = "auto";
  if (auto it = decoded.page.find("theme"); it != decoded.page.end()) {
    if (it->second == "light" || it->second == "dark" || it->second == "auto") theme_ = it->second;
    else
      notices_.push_back(TrF("theme: '{0}' is not light, dark or auto", {it->second}));
  }
  ApplyTheme();
  // The language: the link's lang=, else the browser's.
  Lang lang = browser_lang_;
  if (auto it = decoded.page.find("lang"); it != decoded.page.end()) {
    if (std::optional<Lang> l = ParseLang(it->second); l && it->second.size() == 2)
      lang = *l;
    else
      notices_.push_back(
          TrF("lang: '{0}' is not a language of the page (en, ja); {1} kept", {it->second, LangName(lang)}));
  }
  ChooseLanguage(lang);
}

void App::SetBrowserLang(std::string_view tag) {
  browser_lang_ = ParseLang(tag).value_or(Lang::kEn);
}

void App::ChooseLanguage(Lang lang) {
  lang_message_.clear();
  if (lang == Lang::kEn || HasMessages(lang) || !host_.load_language) {
    wanted_lang_.reset();  // a load still under way is no longer wanted
    return SwitchLanguage(lang);
  }
  if (wanted_lang_ == lang) return;  // asked for already
  wanted_lang_ = lang;
  host_.load_language(lang);  // answers with LanguageReady or LanguageFailed, now or later
}

void App::LanguageReady(Lang lang, std::string_view table) {
  if (!table.empty()) {
    Result<std::size_t> n = LoadMessages(lang, table);
    if (!n.ok()) return LanguageFailed(lang, n.error());
  }
  if (wanted_lang_ != lang) return;  // the reader chose another meanwhile: kept for later
  wanted_lang_.reset();
  if (lang != Lang::kEn && !HasMessages(lang)) return LanguageFailed(lang, "no message table");
  SwitchLanguage(lang);
}

void App::SwitchLanguage(Lang lang) {
  if (lang == CurrentLang()) return;
  SetLang(lang);
  session_.LanguageChanged();  // the records and estimates carry words: made again
  report_cache_.clear();
  state_changed_ = true;  // the link's lang=, the title, the live region
}

void App::LanguageFailed(Lang lang, const std::string& why) {
  if (wanted_lang_ == lang) wanted_lang_.reset();
  lang_message_ = TrF("{0} could not be loaded: {1}", {LangName(lang), why});
}

std::string App::StateHash() const {
  std::string h = session_.StateHash();
  if (const Lang l = wanted_lang_.value_or(CurrentLang()); l != Lang::kEn) h += std::string("&lang=") + LangCode(l);
  if (!embed_.empty()) h += "&embed=" + embed_;
  if (theme_ != "auto") h += "&theme=" + theme_;
  if (compact_) h += "&compact=1";
  return h;
}

void App::SetPreferDark(bool dark) {
  prefer_dark_ = dark;
  ApplyTheme();
}

// Light or dark: the hash's theme= if set, else the host page's preference. Charts and status
// colours read the style, so they follow.
void App::ApplyTheme() {
  const bool dark = theme_ == "dark" || (theme_ == "auto" && prefer_dark_);
  if (theme_applied_ && dark == dark_) return;
  if (!ImGui::GetCurrentContext()) return;  // no window yet (tests without a frame)
  dark_ = dark;
  theme_applied_ = true;
  ImGuiStyle& style = ImGui::GetStyle();
  if (dark) ImGui::StyleColorsDark(&style);
  else ImGui::StyleColorsLight(&style);
  style.FrameBorderSize = dark ? 0.0f : 1.0f;  // white inputs on a white popup need an edge
  SetPalette(dark);
}

void App::RankNow() {
  if (ranking_wanted_) session_.CompareAll();
  // A result that completes here is announced (the live region, LiveText) after the next frame.
  if (serve_wanted_ && !session_.ServeReady())
    (void)session_.Serve(), state_changed_ = true;
  else if (serve_wanted_)
    (void)session_.ServeCurveStep();  // one point of the load curve per task
  // The plan: a slice of about 12 ms per task, so a frame is never held up for long.
  if (plan_wanted_ && !session_.PlanStep(12)) state_changed_ = true;
  ranking_wanted_ = serve_wanted_ = plan_wanted_ = false;
}

bool App::ConsumeStateChanged() {
  bool changed = state_changed_;
  state_changed_ = false;
  return changed;
}

const CostEstimate& App::CostNow() {
  static const CostEstimate none;
  const Result<CostEstimate>& c = session_.Cost();
  return c.ok() ? c.value() : none;
}

std::string App::ResultJson(std::string_view which) {
  const View* v = FindView(which);
  return v ? ViewJson(*v, session_) : std::string();
}

const std::string& App::ReportJson() {
  report_json_ = ViewJson(*FindView("fit"), session_);
  return report_json_;
}

void App::Edit(std::string_view key, const std::string& value) {
  std::string k(key);
  if (auto err = session_.Set(key, value)) {
    field_errors_[k] = err->message;
    return;
  }
  field_errors_.erase(k);
  state_changed_ = true;
}

void App::Track(const char* key) {
  ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  rects_[key] = Rect{a.x, a.y, b.x, b.y};
}

void App::TrackPick(const char* field, const std::string& id) {
  if (id == "#search") return Track((std::string(field) + "-search").c_str());
  if (!id.empty()) return Track((std::string(field) + ":" + id).c_str());
  const ImVec2 a = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  rects_[std::string(field) + "-list"] = Rect{a.x, a.y, a.x + size.x, a.y + size.y};
}

std::string App::WidgetRectsJson() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [key, r] : rects_) j[key] = {{"x0", r.x0}, {"y0", r.y0}, {"x1", r.x1}, {"y1", r.y1}};
  return j.dump();
}

const ParamCount& App::Params(const Model& m) {
  auto it = params_cache_.find(m.id);
  if (it == params_cache_.end()) it = params_cache_.emplace(m.id, CountParams(m)).first;
  return it->second;
}

std::string App::ImportText(std::string_view text, const std::string& name_hint) {
  // Recognised once, in the session: a config.json, a catalog file, a probe result, the sources.
  const ImportOutcome r = session_.Import(text, name_hint);
  if (r.kind == "cpu-probe") {
    machine_threads_ = 0;  // a threaded probe's answer ends its wait
    if (!r.ok) machine_message_ = r.message;
  }
  if (r.kind == "sources") {
    sources_state_ = r.ok ? "loaded" : r.message;
  } else if (r.kind != "cpu-probe") {
    import_ok_ = r.ok;
    import_message_ = import_banner_ = r.message;  // shown on whichever panel is open
  }
  if (r.ok && (r.kind == "catalog" || r.kind == "sources")) params_cache_.clear();  // same ids, new entries
  return nlohmann::json{{"ok", r.ok}, {"message", r.message}}.dump();
}

std::string App::ImportTooLarge(const std::string& name, double bytes) {
  const ImportOutcome r = Session::TooLargeToImport(name, bytes);
  import_ok_ = r.ok;
  import_message_ = import_banner_ = r.message;
  return nlohmann::json{{"ok", r.ok}, {"message", r.message}}.dump();
}

std::string App::FieldErrorsJson() const { return nlohmann::json(field_errors_).dump(); }

void App::Frame() {
  if (!theme_applied_) ApplyTheme();
  rects_.clear();  // the widgets drawn this frame, not every one ever drawn
  // Tab with nothing focused (the page just opened, or after Escape): into the first typed
  // field; from there ImGui's own Tab moves on. (ImGui 1.86 tabs only within the focused
  // window, and the inputs are a child of it.)
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.KeyCtrl && !ImGui::IsAnyItemActive() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Tab), false))
    focus_first_input_ = true;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::Begin("gpuplan", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  if (!embed_.empty()) {
    DrawEmbedded();
    ImGui::End();
    return;
  }
  ImGui::TextUnformatted("gpuplan");
  const char* tagline = Tr("which GPU, how many, how fast, at what cost - with the work shown");
  if (ImGui::CalcTextSize(tagline).x < ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 24) {
    ImGui::SameLine();
    ImGui::TextColored(Muted(), "%s", tagline);
  }
  // Presets: the common questions (the seeds' examples among them) as whole scenarios.
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  if (ImGui::BeginCombo("##presets", Tr("Presets..."), ImGuiComboFlags_HeightLarge)) {
    for (const Preset& p : Presets()) {
      if (ImGui::Selectable((std::string(Tr(p.question.c_str())) + "##" + p.id).c_str())) {
        LoadState(p.hash);
        state_changed_ = true;
        requested_tab_ = FindView(p.panel) ? p.panel : "fit";
      }
      if (ImGui::IsItemHovered() && !p.source.empty()) ImGui::SetTooltip("%s", Tr(p.source.c_str()));
      Track(("preset-" + p.id).c_str());
    }
    ImGui::EndCombo();
  }
  Track("presets");
  DrawLanguageSwitch();

  if (!catalog_error_.empty())
    ImGui::TextColored(Bad(), "%s", TrF("Catalog failed to load: {0}", {catalog_error_}).c_str());
  if (!host_notices_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, Warn());
    for (const std::string& n : host_notices_) Paragraph(n);
    ImGui::PopStyleColor();
    if (ImGui::SmallButton((std::string(Tr("Dismiss")) + "##host").c_str())) host_notices_.clear();
  }
  if (!notices_.empty()) {
    ImGui::TextColored(Warn(), "%s", Tr("The link had fields that could not be used; defaults were kept for them:"));
    for (const std::string& n : notices_) ImGui::BulletText("%s", n.c_str());
    if (ImGui::SmallButton((std::string(Tr("Dismiss")) + "##notices").c_str())) notices_.clear();
    ImGui::Separator();
  }
  DrawImportBanner();

  // The panels as tabs; where their names do not fit in one row (a phone), as buttons that flow
  // over rows, each name whole (a tab bar would cut them to "Sp..." and need two taps).
  float names = 0;
  for (const View& v : Views())
    names += ImGui::CalcTextSize(Tr(v.title)).x + ImGui::GetStyle().FramePadding.x * 2 +
             ImGui::GetStyle().ItemInnerSpacing.x;
  if (names > ImGui::GetContentRegionAvail().x) {
    const View* shown = nullptr;
    for (const View& v : Views()) {
      if (requested_tab_ == v.id) SelectTab(v);
      if (&v != &Views().front())
        SameLineIfFits(ImGui::CalcTextSize(Tr(v.title)).x + ImGui::GetStyle().FramePadding.x * 2);
      const bool current = tab_ == v.id;
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(current ? ImGuiCol_TabActive : ImGuiCol_Tab));
      if (ImGui::Button((std::string(Tr(v.title)) + "###" + v.id).c_str())) SelectTab(v);
      ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr(v.help));
      Track((std::string("tab-") + v.id).c_str());
      if (tab_ == v.id) shown = &v;
    }
    requested_tab_.clear();
    ImGui::Separator();
    if (!shown) SelectTab(*(shown = &Views().front()));
    ImGui::PushID(shown->id);  // the same widget ids as under a tab bar
    DrawPanel(*shown);
    ImGui::PopID();
  } else if (ImGui::BeginTabBar("panels")) {
    // A tab asked for by the code (a link, a preset, "Use in Fit") is selected once, then the
    // user's clicks rule.
    bool consumed = false;
    for (const View& v : Views()) {
      ImGuiTabItemFlags flags = 0;
      if (requested_tab_ == v.id) {
        flags = ImGuiTabItemFlags_SetSelected;
        consumed = true;
      }
      const bool open = ImGui::BeginTabItem((std::string(Tr(v.title)) + "###" + v.id).c_str(), nullptr, flags);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr(v.help));
      Track((std::string("tab-") + v.id).c_str());
      if (!open) continue;
      SelectTab(v);
      DrawPanel(v);
      ImGui::EndTabItem();
    }
    if (consumed) requested_tab_.clear();  // a request made while drawing applies next frame
    ImGui::EndTabBar();
  }
  ImGui::End();
}

void App::SelectTab(const View& v) {
  if (tab_ == v.id) return;
  tab_ = v.id;
  // The title, the live region and the link follow the panel shown (a link's tab= shows a
  // frame after the first, when the session already names it).
  state_changed_ = true;
  if (session_.view().tab != v.id) session_.Set("tab", v.id);  // links open here
}

// The views with a panel of their own; any other view shows its report's tables (DrawReport),
// so a view added to the table (views.h) appears here without an edit.
void App::DrawPanel(const View& v) {
  const std::string_view id = v.id;
  if (id == "machine") DrawMachine();
  else if (id == "catalog") DrawCatalog();
  else DrawWithInputs(v);
}

void App::DrawViewBody(const View& v) {
  const std::string_view id = v.id;
  if (id == "fit") DrawResult();
  else if (id == "speed") DrawSpeed();
  else if (id == "compare") DrawCompare();
  else if (id == "serve")
    DrawServe(v);
  else if (id == "plan")
    DrawPlan(v);
  else if (id == "train") DrawTrain();
  else if (id == "cost") DrawCost();
  else if (id == "roofline") DrawRoofline();
  else DrawReport(v);
}

Report& App::CachedReport(const View& v, const ReportOptions& options) {
  CachedView& c = report_cache_[std::string(v.id) + (options.explain ? ":explain" : "") +
                                (options.curve_tables ? "" : ":charts")];
  if (c.generation != session_.generation() + 1) {  // +1: an empty entry never matches
    c.report = v.report(session_, options);
    c.generation = session_.generation() + 1;
  }
  return c.report;
}

void App::DrawReport(const View& v, bool verdict) { DrawReport(v, CachedReport(v), verdict); }

void App::DrawReport(const View& v, const Report& r, bool verdict, bool tables_only, size_t from_section, bool head) {
  size_t first = 0;
  if (verdict && !r.after.empty()) {
    const bool fits = r.verdict > 0 || (r.verdict == 0 && r.after[0].rfind("FITS", 0) == 0);
    ImGui::PushStyleColor(ImGuiCol_Text, fits ? Good() : Bad());
    Paragraph(r.after[0]);
    ImGui::PopStyleColor();
    Track((std::string(v.id) + "-verdict").c_str());
    first = 1;
  }
  if (!tables_only && from_section == 0 && head)  // from_section > 0 or !head: the panel drew the head itself
    for (const std::string& l : r.lines) Paragraph(l);
  for (size_t i = from_section; i < r.sections.size(); ++i) {
    const Section& sec = r.sections[i];
    if (!sec.shown) continue;
    if (!sec.heading.empty()) ImGui::TextColored(Muted(), "%s", sec.heading.c_str());
    RecordsTable(sec.heading.empty() ? v.id : sec.heading.c_str(), sec.records);
  }
  for (size_t i = first; i < r.after.size() && !tables_only; ++i) Paragraph(r.after[i]);
  ImGui::PushStyleColor(ImGuiCol_Text, Warn());
  for (const std::string& w : r.warnings) Paragraph("! " + w);
  ImGui::PopStyleColor();
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  for (const std::string& n : r.notes) Paragraph(n);
  ImGui::PopStyleColor();
  if (!r.assumptions.empty() && ImGui::TreeNode("assumptions", "%s", Tr("Assumptions"))) {
    for (const std::string& a : r.assumptions) ImGui::BulletText("%s", a.c_str());
    ImGui::TreePop();
  }
  DrawCliTwin(v);
}

void App::DrawLanguageSwitch() {
  // Each language named in the page's language ("Japanese" in English, "日本語" in Japanese):
  // the start-up font has no Japanese glyphs until the Japanese font is loaded.
  auto name = [](Lang l) { return l == Lang::kEn ? "English" : Tr("Japanese"); };
  const Lang shown = wanted_lang_.value_or(CurrentLang());
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::CalcTextSize(name(Lang::kJa)).x + ImGui::CalcTextSize("English").x +
                          ImGui::GetFrameHeight());
  if (ImGui::BeginCombo("##lang", name(shown))) {
    for (Lang l : {Lang::kEn, Lang::kJa}) {
      if (ImGui::Selectable(name(l), l == shown)) {
        ChooseLanguage(l);
        state_changed_ = true;
      }
      Track((std::string("lang:") + LangCode(l)).c_str());
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("Language of the page (lang=en or lang=ja in the link)"));
  Track("lang");
  if (wanted_lang_) {
    ImGui::SameLine();
    ImGui::TextColored(Muted(), "%s", Tr("loading..."));
  }
  if (!lang_message_.empty()) ImGui::TextColored(Bad(), "%s", lang_message_.c_str());
}

void App::DrawImportBanner() {
  if (import_banner_.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, import_ok_ ? Good() : Bad());
  Paragraph(import_banner_);
  ImGui::PopStyleColor();
  Track("import-banner");
  if (ImGui::SmallButton((std::string(Tr("Dismiss")) + "##import").c_str())) import_banner_.clear();
}

void App::DrawCliTwin(const View& v) {
  if (compact_ && !embed_.empty()) return;
  // In an embed the command folds (one line, not four of a 700 px column); on the page it shows.
  if (!embed_.empty() && !ImGui::TreeNode("cli-twin", "%s", Tr("CLI twin"))) return;
  if (embed_.empty()) {
    ImGui::TextColored(Muted(), "%s:", Tr("CLI twin"));
    ImGui::SameLine();
  }
  Paragraph(ViewCliCommand(v, session_));
  if (!embed_.empty()) ImGui::TreePop();
}

std::string App::PageTitle() const {
  const View* v = FindView(embed_.empty() ? tab_ : embed_);
  if (!v) return "gpuplan";  // the em dash as in the shell's own <title>
  if (!v->scenario) return std::string("gpuplan \xE2\x80\x94 ") + Tr(v->title);
  return std::string("gpuplan \xE2\x80\x94 ") + Tr(v->title) + ": " + ScenarioLine(*v, session_);
}

std::string App::LiveText() {
  const View* v = FindView(embed_.empty() ? tab_ : embed_);
  if (!v || !v->scenario) return PageTitle();
  std::string text = std::string(Tr(v->title)) + ": " + ScenarioLine(*v, session_) + ". ";
  // Results computed between frames are not computed here: said as under way until they are.
  if (defer_ranking_ && v->id == std::string_view("serve") && !session_.ServeReady())
    return text + Tr("Simulating the requests.");
  if (defer_ranking_ && v->id == std::string_view("plan") && !session_.PlanShown().done())
    return text + TrF("Searching the catalog ({0}).", {session_.PlanShown().stage()});
  const Report& r = CachedReport(*v);
  if (!r.after.empty() && (std::string_view(v->id) == "fit" || std::string_view(v->id) == "train")) return text + r.after[0];
  int rows = 0;
  for (const Section& sec : r.sections) {
    for (const std::vector<Cell>& row : sec.records.rows) {
      if (rows++ == 3) return text;
      for (const Cell& c : row)
        if (c.kind != Cell::Kind::kUnknown && !c.text.empty()) text += c.text + " ";
      text.back() = ';';
      text += ' ';
    }
    if (rows) break;  // the first table's head
  }
  return text;
}

// Embed mode (#embed=<panel>&...): one panel for a blog's or a docs page's iframe. The result
// comes first; the inputs fold under it; a link opens the whole calculator on this scenario.
void App::DrawEmbedded() {
  const View& v = *FindView(embed_);
  tab_ = v.id;
  ImGui::TextUnformatted("gpuplan");
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  Paragraph(std::string(v.id) + ": " + ScenarioLine(v, session_));
  ImGui::PopStyleColor();
  ImGui::PushStyleColor(ImGuiCol_Text, Warn());
  for (const std::string& n : host_notices_) Paragraph("! " + n);
  for (const std::string& n : notices_) Paragraph("! " + n);
  ImGui::PopStyleColor();
  DrawImportBanner();
  ImGui::PushID("embed");
  if (ImGui::CollapsingHeader((std::string(Tr("Inputs")) + "###inputs").c_str())) {
    Track("embed-inputs");
    if (embed_ == "train") DrawTrainInputs();
    else if (embed_ == "cost") DrawCostInputs();
    DrawInputs(embed_);
    ImGui::Separator();
  } else {
    Track("embed-inputs");
  }
  if (!compact_) DrawExportBar(v);
  DrawViewBody(v);
  ImGui::PopID();
  // Where the content ends (the cursor is in content coordinates, scrolling included).
  embed_content_height_ = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
}

void App::HostNotice(std::string_view what) {
  if (what == "wasm-type")
    host_notices_.push_back(
        Tr("This site sends index.wasm without the type application/wasm, so the browser compiled it "
           "only after the whole download: gpuplan works, but starts later. For the site's owner: "
           "serve .wasm as application/wasm (README-HOSTS.md in the bundle has the lines for Apache, "
           "nginx, Netlify and Cloudflare Pages)."));
}

void App::Copy(const std::string& kind, const std::string& text) {
  last_copy_kind_ = kind;
  last_copy_text_ = text;
  if (host_.copy) host_.copy(text);
  else ImGui::SetClipboardText(text.c_str());
  export_message_ = TrF("Copied {0} ({1} characters)", {kind, FormatCount(static_cast<long long>(text.size()))});
}

// For the embed code: resize each gpuplan frame to the height its panel reports.
constexpr const char* kEmbedResizeScript =
    "<script>addEventListener('message',function(e){var d=e.data;if(!d||d.type!=='gpuplan:height')return;"
    "var f=document.getElementsByTagName('iframe');for(var i=0;i<f.length;i++)if(f[i].contentWindow===e.source)"
    "f[i].style.height=Math.min(Math.max(d.height,200),4000)+'px';});</script>";

std::string App::ExportText(std::string_view kind, std::string_view panel) {
  const View* v = FindView(panel);
  if (!v || !v->embeddable) return {};
  // The link opens on this panel with the view options (sort, filters, overlays) as they are.
  ViewOptions at = session_.view();
  at.tab = ViewOptions().tab;  // written last, always: the panel the link opens
  const std::string state =
      EncodeState(scenario_) + EncodeViewOptions(at) + CatalogStatePair(*catalog_) + "&tab=" + v->id;
  if (kind == "link") return host_.page_url + "#" + state;
  if (kind == "embed") {
    const Model* m = catalog_->FindModel(scenario_.model);
    const int height = panel == "compare" || panel == "roofline" ? 640 : 520;
    // The theme as the author sees it now (an embed otherwise follows the reader's system
    // setting, not the blog's); edit theme= to light, dark or auto. The script is optional: it
    // sets the frame's height to what the panel reports (a 'gpuplan:height' message), so the
    // content is not cut; without it the frame keeps its height and scrolls.
    const std::string theme = !embed_theme_.empty() ? embed_theme_ : theme_ != "auto" ? theme_ : dark_ ? "dark" : "light";
    // Click to load: the frame shows a still preview with this caption until the reader asks
    // for the calculator (the shell's facade), so a post with many embeds loads none up front.
    const std::string facade = embed_facade_ ? "&facade=" + PercentEncode(std::string(v->title) + ": " + ScenarioLine(*v, session_)) : "";
    return "<iframe src=\"" + host_.page_url + "#embed=" + v->id + "&theme=" + theme + (embed_compact_ ? "&compact=1" : "") +
           facade + "&" + state +
           "\" width=\"100%\" height=\"" + std::to_string(height) +
           "\" style=\"border:0;max-width:100%\" loading=\"lazy\" title=\"gpuplan: " + v->id +
           (m ? " for " + m->name : std::string()) + "\"></iframe>\n" + kEmbedResizeScript;
  }
  if (kind == "cli") return ViewCliCommand(*v, session_);
  if (!v->failure(session_).empty()) return {};
  if (kind == "json") return ViewJson(*v, session_);
  if (kind == "markdown") return PrintView(*v, session_, "md");
  return {};
}

// The export row under every scenario panel: what a blog author or a colleague needs.
void App::DrawExportBar(const View& v) {
  const std::string panel = v.id;
  ImGui::PushID("export");
  static const struct {
    const char* label;
    const char* kind;
    const char* tip;
  } kButtons[] = {
      {N_("Copy link"), "link", N_("the page's address with the whole scenario in the hash (opens on this panel)")},
      {N_("Copy embed code"), "embed", N_("an <iframe> that shows this panel alone, for a blog or a docs page")},
      {N_("Copy Markdown"), "markdown", N_("the result as Markdown (what the CLI prints with --format md)")},
      {N_("Copy JSON"), "json", N_("the result as JSON (what the CLI prints with --format json)")},
      {N_("Copy CLI command"), "cli", N_("the gpuplan command that prints the same numbers")},
  };
  // Side by side while they fit, then on the next line (a phone-width iframe).
  auto same_line_if_fits = [](const char* label) {
    SameLineIfFits(ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2);
  };
  bool first = true;
  for (const auto& b : kButtons) {
    if (!first) same_line_if_fits(Tr(b.label));
    first = false;
    if (ImGui::SmallButton((std::string(Tr(b.label)) + "###" + b.kind).c_str())) {
      const std::string text = ExportText(b.kind, panel);
      if (text.empty())
        export_message_ = Tr("Nothing to copy: the scenario has no result");
      else Copy(b.kind, text);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr(b.tip));
    Track((panel + "-copy-" + b.kind).c_str());
    if (std::string_view(b.kind) == "embed") {
      // The embed code's options: the frame's theme (as shown now, or the reader's, or fixed)
      // and a compact frame (the result alone: no export buttons, no CLI twin).
      ImGui::SameLine(0, 1);
      if (ImGui::SmallButton("v##embed-options")) ImGui::OpenPopup("embed-options");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("embed code options: theme, compact, click to load"));
      Track((panel + "-embed-options").c_str());
      if (ImGui::BeginPopup("embed-options")) {
        ImGui::TextColored(Muted(), "%s", Tr("Theme of the embedded frame"));
        for (const char* t : {"", "auto", "light", "dark"}) {
          if (ImGui::RadioButton((std::string(*t ? t : Tr("as shown now")) + "###theme-" + t).c_str(),
                                 embed_theme_ == t))
            embed_theme_ = t;
          ItemTip(std::string_view(t) == "auto" ? Tr("follows the reader's system setting, not the blog's") : "");
          Track(("embed-theme:" + std::string(*t ? t : "shown")).c_str());
        }
        ImGui::Checkbox((std::string(Tr("compact: the result alone")) + "###compact").c_str(), &embed_compact_);
        ItemTip(Tr("no export buttons and no CLI twin in the frame (compact=1)"));
        Track("embed-compact");
        ImGui::Checkbox((std::string(Tr("click to load: a preview until the reader asks")) + "###facade").c_str(),
                        &embed_facade_);
        ItemTip(
            Tr("the frame shows a still image and the scenario in words; gpuplan loads when the reader presses its "
               "button (facade=...): for a post with many embeds"));
        Track("embed-facade");
        ImGui::EndPopup();
      }
    }
  }
  if (panel == "serve" && session_.ServeReady() && session_.Launch().ok()) {
    // The engine command that realises the served setup (launch.h), as `gpuplan serve` prints it.
    same_line_if_fits(Tr("Copy launch command"));
    if (ImGui::SmallButton((std::string(Tr("Copy launch command")) + "###launch").c_str()))
      Copy("launch", session_.Launch()->Command());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s",
                        TrF("the {0} command with the flags this run assumed", {session_.Launch()->engine}).c_str());
    Track("serve-copy-launch");
  }
  if (panel == "roofline") {
    same_line_if_fits(Tr("Download SVG"));
    if (ImGui::SmallButton((std::string(Tr("Download SVG")) + "###svg").c_str())) {
      const std::string svg = RooflineSvg(session_.Chart());
      last_copy_kind_ = "svg";
      last_copy_text_ = svg;
      export_message_ = host_.save ? host_.save("gpuplan-roofline.svg", "image/svg+xml", svg)
                                   : std::string(Tr("no file saving here"));
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", Tr("the chart as an SVG file (what gpuplan roofline --svg writes)"));
    Track("roofline-download-svg");
  }
  if (!export_message_.empty()) {
    same_line_if_fits(export_message_.c_str());
    ImGui::TextColored(Muted(), "%s", export_message_.c_str());
  }
  ImGui::PopID();
}

void App::DrawWithInputs(const View& v) {
  const bool wide = ImGui::GetContentRegionAvail().x > ImGui::GetFontSize() * 50.0f;
  auto result = [&] {
    DrawExportBar(v);
    DrawViewBody(v);
  };
  ImGui::PushID(v.id);
  if (wide) {
    ImGui::BeginChild("inputs", ImVec2(ImGui::GetFontSize() * 28.0f, 0), false);
    DrawInputs(v.id);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("result", ImVec2(0, 0), false);
    result();
    ImGui::EndChild();
  } else {
    // A phone or a narrow column: the inputs fold under a line that says what they hold, so
    // the answer is in reach without scrolling past twenty fields.
    ImGui::PushStyleColor(ImGuiCol_Text, Muted());
    Paragraph(ScenarioLine(v, session_));
    ImGui::PopStyleColor();
    if (ImGui::CollapsingHeader((std::string(Tr("Inputs")) + "###inputs").c_str())) DrawInputs(v.id);
    Track("inputs");
    result();
  }
  ImGui::PopID();
}

}  // namespace gpuplan::ui
