// web/ui/app.h — the ImGui application shared by the page and the native window.
// Hosts (web/host/main_web.cpp, native/gui/main_native.cpp) own the window, the GL context
// and the event loop; they call App::Frame() once per frame between ImGui::NewFrame() and
// ImGui::Render(). The app holds one Scenario, computes through the core, and only draws.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/compare.h"
#include "gpuplan/cost.h"
#include "gpuplan/cpu_probe.h"
#include "gpuplan/i18n.h"
#include "gpuplan/inference.h"
#include "gpuplan/model.h"
#include "gpuplan/probe_result.h"
#include "gpuplan/roofline.h"
#include "gpuplan/scenario.h"
#include "gpuplan/session.h"
#include "gpuplan/speed.h"
#include "gpuplan/training.h"
#include "gpuplan/views.h"

namespace gpuplan::ui {

struct Rect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// What the host offers the panels: the clipboard, saving a file, the page's address.
struct HostServices {
  std::function<void(const std::string& text)> copy;  // default: ImGui's clipboard
  // Saves `text` as a file the user gets (the page: a download; natively: in the working folder);
  // returns where it went, for the status line.
  std::function<std::string(const std::string& name, const std::string& mime, const std::string& text)> save;
  std::string page_url = "http://localhost:8000/";  // the page's address without the hash
  // Fetches the catalog's sources (the page's catalog-sources.json) and hands the text to
  // ImportText; empty where the built-in catalog has them already (natively).
  std::function<void()> load_sources;
  // Fetches what a language needs besides English (its message table, its font) and answers
  // with App::LanguageReady or App::LanguageFailed, now or later. Empty: the language is built in
  // (the native window loads it itself before LanguageReady).
  std::function<void(Lang lang)> load_language;
  // Measures this machine's CPU on the calling thread (quick: about 2 s), where the host can
  // (the native window: machine.h's MeasureMachine); empty on the page, whose probe runs in a
  // module of its own (SetThreadedProbe).
  std::function<Result<CpuProbeResult>(bool quick)> measure_cpu;
};

class App {
 public:
  App();

  // Replaces the scenario with what the hash holds; invalid fields are dropped and listed
  // in a notice on the page. An empty hash gives the defaults.
  // The hash may also carry the page's own keys (scenario.h PageKeys): embed=<panel> shows one
  // panel alone for an iframe, tab=<panel> opens a panel, theme=light|dark|auto.
  void LoadState(std::string_view hash);
  // The scenario's hash, with the page's own keys that are set (embed, theme).
  std::string StateHash() const;
  // True once after the user changed the scenario (the host then writes the URL hash).
  bool ConsumeStateChanged();
  // The whole-catalog ranking outside the frames: with deferral on (the page and the native
  // window), the Compare panel shows the last ranking while a new one is due and asks for it
  // (RankingWanted); the host runs RankNow between frames and draws again. Off (tests, dumps):
  // the panel ranks as it draws.
  void SetDeferRanking(bool on) { defer_ranking_ = on; }
  bool RankingWanted() const { return ranking_wanted_ || serve_wanted_ || plan_wanted_; }
  void RankNow();

  void Frame();

  // The fit report (the same JSON as `gpuplan fit --format json`); recomputed only when the
  // scenario changed, never per frame.
  const std::string& ReportJson();
  // What `gpuplan <which> --format json` prints for this scenario and these view options
  // (compare: its sort and filters): which = a view id (views.h). Empty for another word.
  std::string ResultJson(std::string_view which);
  const std::vector<std::string>& Notices() const { return notices_; }
  // What the page's host found wrong with the site, as a notice: "wasm-type" (index.wasm came
  // without the type application/wasm, so it was compiled from a whole download).
  void HostNotice(std::string_view what);
  const std::vector<std::string>& HostNotices() const { return host_notices_; }
  // Screen rectangles of the main widgets, by field key, for end-to-end tests that click.
  std::string WidgetRectsJson() const;
  // Adds a catalog file or a Hugging Face config.json (pasted, or dropped on the window) to the
  // catalog of this session; returns {"ok": bool, "message": "..."} as JSON.
  std::string ImportText(std::string_view text, const std::string& name_hint);
  // A file the page did not read (over Session::kMaxImportBytes): said like a refused import.
  std::string ImportTooLarge(const std::string& name, double bytes);
  // Embed mode: the height the panel's content takes (in the UI's units, CSS pixels on the
  // page), measured each frame; 0 outside embed mode. The page posts it to the host page.
  float EmbedContentHeight() const { return embed_.empty() ? 0 : embed_content_height_; }
  // The host's threaded CPU probe, where it has one (the page when cross-origin isolated):
  // starts it and returns the threads it uses, or 0 when it cannot; the result comes back
  // through ImportText. Without it the This machine panel measures on the calling thread.
  void SetThreadedProbe(std::function<int(bool quick)> start) { threaded_probe_ = std::move(start); }
  void SetHost(HostServices host) { host_ = std::move(host); }
  // The host page's colour preference (prefers-color-scheme); a theme= key in the hash wins.
  void SetPreferDark(bool dark);
  // The browser's language (navigator.language): the page's language where the link names none.
  void SetBrowserLang(std::string_view tag);
  // The language the page is drawn in, and the one asked for (a link's lang=, the switch).
  Lang Language() const { return CurrentLang(); }
  void ChooseLanguage(Lang lang);
  // The host has what `lang` needs (table: the message table's JSON text; the font is the
  // host's): the page switches to it. A failure keeps the language shown and says why.
  void LanguageReady(Lang lang, std::string_view table);
  void LanguageFailed(Lang lang, const std::string& why);
  bool Dark() const { return dark_; }
  // What the export buttons copy for a panel: kind = link, embed, markdown, json, cli; panel =
  // fit, speed, cost, compare, train, roofline. Empty for a kind the panel has not.
  std::string ExportText(std::string_view kind, std::string_view panel);
  // For screen readers (the page's live region outside the canvas): the panel shown, the
  // scenario, and its headline — the verdict where the view has one, else its first rows.
  std::string LiveText();
  // The document's title: the panel and the scenario ("gpuplan - Fit: Llama 3.1 8B on 1 x ...").
  std::string PageTitle() const;
  // What the panels show besides the scenario (tab, catalog search, selection), for tests.
  std::string UiStateJson() const;
  // Edits refused since the last good one, by field key: {"context": "context: '0' must ..."}.
  std::string FieldErrorsJson() const;

 private:
  // Every edit goes through the session's parsers (the URL hash's and the CLI flags').
  void Edit(std::string_view key, const std::string& value);
  void Track(const char* key);
  // A picker's entry (key "<field>:<id>") or, for id "", its open list's window ("<field>-list").
  void TrackPick(const char* field, const std::string& id);
  void ApplyTheme();
  // One view's panel: its own drawing where it has one, else its report's tables.
  void DrawPanel(const View& v);
  // Shows that panel (and records it in the link's tab= key).
  void SelectTab(const View& v);
  // The view's report as the CLI prints it: lines, tables, verdict and figures, warnings,
  // assumptions (folded). `verdict`: its first figure line is the verdict, coloured and tracked
  // as "<view>-verdict".
  void DrawReport(const View& v, bool verdict = false);
  // `tables_only`: no summary or figure lines (the panel drew them itself).
  // head = false: the panel drew the report's lines itself (above its charts).
  void DrawReport(const View& v, const Report& r, bool verdict, bool tables_only = false, size_t from_section = 0,
                  bool head = true);
  // The view's report, built once per change of the session (not per frame); the panel may
  // trim its copy once (it stays trimmed until the next change).
  Report& CachedReport(const View& v, const ReportOptions& options = {});
  // The view's result: its panel's drawing, or its report.
  void DrawViewBody(const View& v);
  void DrawEmbedded();
  // "CLI twin: gpuplan fit ..." under a view (folded in an embed, left out of a compact one).
  void DrawCliTwin(const View& v);
  // What became of a file dropped or pasted on the page, on whichever panel is open.
  void DrawImportBanner();
  // The language switch beside the presets, and what it is waiting for.
  void DrawLanguageSwitch();
  void SwitchLanguage(Lang lang);  // the table is loaded: the page speaks it from the next frame
  // Copy link / embed code / Markdown / JSON / CLI command (and the roofline's SVG) for a panel.
  void DrawExportBar(const View& v);
  void Copy(const std::string& kind, const std::string& text);
  const CostEstimate& CostNow();
  // The Cost panel (panel_cost.cpp).
  void DrawCost();
  void DrawCostInputs();
  // One input, drawn from the field table (kind, label, help, limits, step, choices) and
  // edited through the shared parser (fields.cpp): the page's only widget set.
  void Field(std::string_view key);
  void MigField(const FieldInfo& f);
  void NumberField(const FieldInfo& f, const std::string& value);
  std::string EccNote() const;

  // The scenario's inputs for a view: Train leaves out what only serving reads (engine, KV
  // cache, prompt, batch, CUDA graphs, the multi-GPU split, expert parallelism).
  void DrawInputs(std::string_view view);
  void DrawResult();
  void DrawSpeedSummary();
  // Inputs on the left, the view beside them (below them when the window is narrow).
  void DrawWithInputs(const View& v);
  // The Speed and Compare panels (panel_speed.cpp).
  void DrawSpeed();
  void DrawCompare();
  void DrawServe(const View& v);
  // The Plan panel (panel_plan.cpp): the search with its progress, the Pareto plot, the rows.
  void DrawPlan(const View& v);
  // A view's options from the field table, as many on a line as fit; tracked as prefix + key.
  void OptionFields(const char* const* keys, size_t count, const char* track_prefix);
  // The Train panel (panel_train.cpp).
  void DrawTrain();
  void DrawTrainInputs();
  // The Roofline panel (panel_roofline.cpp): the session's chart and operations.
  void DrawRoofline();
  // The This machine panel (panel_machine.cpp): the CPU measured here, a loaded GPU probe.
  void DrawMachine();
  // The Catalog panel (panel_catalog.cpp): search, filters, a table, the detail with sources.
  void DrawCatalog();
  void DrawGpuTable();
  void DrawGpuDetail(const Gpu& g);
  void DrawModelTable();

  void DrawImport();
  void DrawImportBody(bool select_model);
  // The page's built-in catalog comes without its sources: fetch them once, when shown.
  void RequestSources();
  // `text`, or while the page's catalog has left such words out, a line saying they load (and
  // a request for them when the item just drawn is hovered).
  std::string Words(const std::string& text);
  // Parameter counts by model id, computed once per catalog (the model lists draw every frame).
  const ParamCount& Params(const Model& m);
  void DrawQuotedCheck(const Gpu& g);

  Session session_;                      // the catalog, the scenario, probes, view options, results
  const Catalog* catalog_ = &session_.catalog();   // the same object for the session's life
  const Scenario& scenario_ = session_.scenario();
  std::map<std::string, ParamCount> params_cache_;
  std::string catalog_error_;
  int machine_pending_ = 0;                     // 1: quick, 2: full measurement asked for
  int machine_wait_frames_ = 0;
  int machine_threads_ = 0;                     // > 0: a threaded probe is running on that many
  std::function<int(bool)> threaded_probe_;
  std::string machine_message_;
  std::string report_json_;                     // ReportJson's text, kept for the host to read
  struct CachedView {
    unsigned long generation = 0;
    Report report;
  };
  std::map<std::string, CachedView> report_cache_;  // by view id (+ ":explain")
  bool state_changed_ = false;
  bool defer_ranking_ = false, ranking_wanted_ = false;
  bool serve_wanted_ = false;       // the Serve panel's run is due between frames (RankNow runs it)
  bool plan_wanted_ = false;        // the Plan panel's search has more to do (RankNow runs a slice)
  bool focus_first_input_ = false;  // Tab pressed with nothing focused: the first typed field takes it
  std::vector<std::string> host_notices_;     // what the host got wrong (HostNotice)
  std::vector<std::string> notices_;          // fields dropped from the hash
  std::map<std::string, std::string> field_errors_;  // edits refused, by field key
  std::map<std::string, Rect> rects_;
  char model_filter_[64] = "";
  char gpu_filter_[64] = "";
  std::string tab_ = "fit";                   // the panel drawn last frame
  std::string requested_tab_;                 // a panel to select next frame (a link, a preset, "Use in Fit")
  std::string embed_;                         // embed=<panel>: that panel alone, compact
  float embed_content_height_ = 0;
  bool compact_ = false;            // compact=1: an embed without export buttons and CLI twin
  std::string embed_theme_;         // the embed code's theme= ("": as shown now)
  bool embed_compact_ = false;      // the embed code asks for compact=1
  bool embed_facade_ = false;       // the embed code asks for click-to-load (facade=<caption>)
  Lang browser_lang_ = Lang::kEn;   // navigator.language, where it is one the page speaks
  std::optional<Lang> wanted_lang_;  // asked for and not yet loaded
  std::string lang_message_;         // why a language could not be loaded
  std::string theme_ = "auto";      // theme=: light, dark, or auto (the host page's preference)
  bool prefer_dark_ = true, dark_ = true, theme_applied_ = false;
  HostServices host_;
  std::string last_copy_kind_, last_copy_text_, export_message_;
  std::string sources_state_;  // "" (built in), "elsewhere", "loading", "loaded", or the error
  // Catalog panel
  int catalog_view_ = 0;           // 0: accelerators, 1: models
  char catalog_search_[64] = "";
  int vendor_index_ = 0;           // 0: all vendors
  double min_memory_gib_ = 0;
  std::string selected_gpu_;
  std::vector<std::string> visible_ids_;  // rows shown last frame, in order
  long long min_year_ = 2010;
  std::vector<char> import_buffer_ = std::vector<char>(64 * 1024, '\0');
  std::string import_message_;
  std::string import_banner_;  // the last drop or paste's outcome until dismissed
  bool import_ok_ = true;
  int quoted_precision_ = 0;
  double quoted_tflops_ = 0;
};

}  // namespace gpuplan::ui
